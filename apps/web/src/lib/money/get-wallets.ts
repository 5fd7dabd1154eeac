import type { TWalletsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { moneyKeys } from './keys';

/** Prices move; balances are valued afresh this often. */
export const PRICE_REFRESH_MS = 30_000;

export function getWallets(signal?: AbortSignal): Promise<TWalletsResponse> {
  return api.get<TWalletsResponse>('/api/wallets', signal);
}

export const walletsQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.wallets(),
    queryFn: ({ signal }) => getWallets(signal),
    staleTime: PRICE_REFRESH_MS,
    refetchInterval: PRICE_REFRESH_MS,
  });

/** The customer's four wallets with their USD values and the portfolio total. */
export function useWallets() {
  return useQuery(walletsQueryOptions());
}
