import type { TWalletsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { usePollWhileOffline } from '../realtime';
import { moneyKeys } from './keys';

/** Prices move; while the socket is down, balances are valued afresh this often. */
export const PRICE_REFRESH_MS = 30_000;

export function getWallets(signal?: AbortSignal): Promise<TWalletsResponse> {
  return api.get<TWalletsResponse>('/api/wallets', signal);
}

export const walletsQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.wallets(),
    queryFn: ({ signal }) => getWallets(signal),
    staleTime: PRICE_REFRESH_MS,
  });

/**
 * The customer's four wallets with their USD values and the portfolio total. Live, they are
 * read again on the socket's ledger and price events; polled only while it is down.
 */
export function useWallets() {
  const refetchInterval = usePollWhileOffline(PRICE_REFRESH_MS);
  return useQuery({ ...walletsQueryOptions(), refetchInterval });
}
