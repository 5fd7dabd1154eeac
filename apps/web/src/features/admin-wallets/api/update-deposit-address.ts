import type { TProposedResponse, TUpdateDepositAddressRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

/** Proposed (202): the edit applies when another staff member approves it. */
export function updateDepositAddress(id: string, body: TUpdateDepositAddressRequest) {
  return api.patch<TProposedResponse>(
    `/api/admin/deposit-addresses/${encodeURIComponent(id)}`,
    body,
  );
}

/** Nothing changes until the approval: only the changes queue refreshes. */
export function useUpdateDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body: TUpdateDepositAddressRequest }) =>
      updateDepositAddress(input.id, input.body),
    onSuccess: () => refreshChanges(queryClient),
  });
}
