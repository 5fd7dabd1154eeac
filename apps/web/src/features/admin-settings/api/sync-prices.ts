import type { TPriceSyncResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function syncPrices(): Promise<TPriceSyncResponse> {
  return api.post<TPriceSyncResponse>('/api/admin/prices/sync');
}

/** admin.md §7 sync-wallet-prices; afterwards every price and wallet figure is refetched. */
export function useSyncPrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncPrices,
    onSettled: () => void queryClient.invalidateQueries(),
  });
}
