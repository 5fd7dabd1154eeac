import { setBitcoinAddressNetwork, type TMoneyStatus } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { moneyKeys } from './keys';

/**
 * The status also carries the server's BTC_NETWORK. It is handed to the shared address
 * checks here, as the answer arrives and before any screen reads it, so every form that
 * checks a Bitcoin address (withdrawal, the admin deposit-address dialog) follows the
 * network the server checks against. This is the request both forms load (the withdrawal
 * pages for the switches and daily limit; the admin dialog asks for it before checking),
 * and it answers anyone who passed 2FA, staff included.
 */
export async function getMoneyStatus(signal?: AbortSignal): Promise<TMoneyStatus> {
  return moneyStatusArrived(await api.get<TMoneyStatus>('/api/money/status', signal));
}

/** Takes in a status however it came (its own request or the dashboard's read). */
export function moneyStatusArrived(status: TMoneyStatus): TMoneyStatus {
  setBitcoinAddressNetwork(status.bitcoinNetwork);
  return status;
}

// The operator can switch deposits and withdrawals off at any time; keep it fresh.
export const moneyStatusQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.status(),
    queryFn: ({ signal }) => getMoneyStatus(signal),
    staleTime: 30_000,
  });

/** Whether deposits and withdrawals are on, maintenance, and today's withdrawal allowance. */
export function useMoneyStatus() {
  return useQuery(moneyStatusQueryOptions());
}
