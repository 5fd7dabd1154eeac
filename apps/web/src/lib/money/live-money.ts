import { useQueryClient } from '@tanstack/react-query';
import { outdatedBy, type TRealtimeNotice, useRealtime } from '../realtime';
import { useSession } from '../session';
import { moneyKeys } from './keys';

/** Everything on the customer's screens that a ledger change can alter. */
const MONEY_QUERIES = [
  moneyKeys.wallets(),
  moneyKeys.staking(),
  moneyKeys.transactions(),
  moneyKeys.portfolioHistory(),
  moneyKeys.status(),
] as const;

/** What new prices alter: the prices, the balances' USD values and the chart's last point. */
const PRICED_QUERIES = [
  moneyKeys.prices(),
  moneyKeys.wallets(),
  moneyKeys.portfolioHistory(),
] as const;

/** What a notice makes worth reading again. */
function outdatedQueries(notice: TRealtimeNotice) {
  switch (notice.type) {
    case 'prices.changed':
      return PRICED_QUERIES;
    case 'addresses.changed':
      return [moneyKeys.depositAddresses()];
    case 'resync':
      return [...MONEY_QUERIES, moneyKeys.prices(), moneyKeys.depositAddresses()];
    default:
      return MONEY_QUERIES;
  }
}

/**
 * Refetches the customer's balances and history when the server announces a change to
 * their ledger (a deposit credited, a withdrawal completed, an adjustment), their values
 * when the prices move, their deposit addresses when staff add or remove one, and after
 * the socket reconnects, when an announcement may have been missed. Admins hear every
 * customer's changes; only their own refresh these screens. While the socket is live
 * nothing is polled (usePollWhileOffline): these are the updates.
 */
export function useLiveMoney(): void {
  const queryClient = useQueryClient();
  const userId = useSession().data?.user.id;
  useRealtime(['ledger.changed', 'prices.changed', 'addresses.changed'], (notice) => {
    if ('userId' in notice && notice.userId !== userId) return;
    const predicate = outdatedBy(notice);
    for (const queryKey of outdatedQueries(notice)) {
      void queryClient.invalidateQueries({ queryKey, predicate });
    }
  });
}
