import type { TPriceSyncResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

export function syncPrices(): Promise<TPriceSyncResponse> {
  return api.post<TPriceSyncResponse>('/api/admin/prices/sync');
}

/** The wallet price sync; afterwards every price and wallet figure is refetched. */
export function useSyncPrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncPrices,
    onSettled: () => void queryClient.invalidateQueries(),
  });
}
