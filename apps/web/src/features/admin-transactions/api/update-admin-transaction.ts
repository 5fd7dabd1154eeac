import type { TProposedResponse, TUpdateAdminTransactionRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

export function updateAdminTransaction(
  id: string,
  body: TUpdateAdminTransactionRequest,
): Promise<TProposedResponse> {
  return api.patch<TProposedResponse>(`/api/admin/transactions/${id}`, body);
}

/** Proposed (202): the correction applies when another staff member approves it. */
export function useUpdateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TUpdateAdminTransactionRequest }) =>
      updateAdminTransaction(id, body),
    onSuccess: () => refreshChanges(queryClient),
  });
}
