import type { TPriceSyncStatus } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminSettingsKeys } from './keys';

export function getPriceSync(signal?: AbortSignal): Promise<TPriceSyncStatus> {
  return api.get<TPriceSyncStatus>('/api/admin/prices/sync', signal);
}

export const priceSyncQueryOptions = () =>
  queryOptions({
    queryKey: adminSettingsKeys.priceSync(),
    queryFn: ({ signal }) => getPriceSync(signal),
    staleTime: 30_000,
  });

/** The last wallet price sync and the prices the server holds now. */
export function usePriceSync() {
  return useQuery(priceSyncQueryOptions());
}
