import type { TProposedResponse, TUpdateWalletAddressRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

/** Proposed (202): a wallet's address changes where money goes, so another staff member approves. */
export function updateWalletAddress(walletId: string, body: TUpdateWalletAddressRequest) {
  return api.patch<TProposedResponse>(
    `/api/admin/wallets/${encodeURIComponent(walletId)}/address`,
    body,
  );
}

/** Nothing changes until the approval: only the changes queue refreshes. */
export function useUpdateWalletAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { walletId: string; body: TUpdateWalletAddressRequest }) =>
      updateWalletAddress(input.walletId, input.body),
    onSuccess: () => refreshChanges(queryClient),
  });
}
