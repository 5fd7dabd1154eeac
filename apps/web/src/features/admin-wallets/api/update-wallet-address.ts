import type { TAdminWalletResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminWalletsKeys } from './keys';

export function updateWalletAddress(walletId: string, address: string) {
  return api.patch<TAdminWalletResponse>(
    `/api/admin/wallets/${encodeURIComponent(walletId)}/address`,
    { address },
  );
}

export function useUpdateWalletAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { walletId: string; address: string }) =>
      updateWalletAddress(input.walletId, input.address),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminWalletsKeys.all() }),
  });
}
