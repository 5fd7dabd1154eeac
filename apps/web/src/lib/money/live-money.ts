import { useQueryClient } from '@tanstack/react-query';
import { useRealtime } from '../realtime';
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

/**
 * Refetches the customer's balances and history when the server announces a change to
 * their ledger (a deposit credited, a withdrawal completed, an adjustment), and after the
 * socket reconnects, when an announcement may have been missed. Admins hear every
 * customer's changes; only their own refresh these screens.
 */
export function useLiveMoney(): void {
  const queryClient = useQueryClient();
  const userId = useSession().data?.user.id;
  useRealtime(['ledger.changed'], (notice) => {
    if (notice.type === 'ledger.changed' && notice.userId !== userId) return;
    for (const queryKey of MONEY_QUERIES) void queryClient.invalidateQueries({ queryKey });
  });
}
