import type { TPricesResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';
import { usePollWhileOffline } from '../realtime';
import { PRICE_REFRESH_MS } from './get-wallets';
import { moneyKeys } from './keys';

/** The AUD to USD rate used until the server's answer arrives. */
export const DEFAULT_AUD_USD_RATE = '0.66';

export function getPrices(signal?: AbortSignal): Promise<TPricesResponse> {
  return api.get<TPricesResponse>('/api/prices', signal);
}

export const pricesQueryOptions = () =>
  queryOptions({
    queryKey: moneyKeys.prices(),
    queryFn: ({ signal }) => getPrices(signal),
    staleTime: PRICE_REFRESH_MS,
  });

/** USD prices of the catalogue's assets with their 24 h change, and the AUD to USD rate. */
export function usePrices() {
  const refetchInterval = usePollWhileOffline(PRICE_REFRESH_MS);
  return useQuery({ ...pricesQueryOptions(), refetchInterval });
}
