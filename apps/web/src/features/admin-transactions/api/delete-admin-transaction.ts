import type { TDeleteAdminTransactionRequest, TProposedResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

export function deleteAdminTransaction(
  id: string,
  body: TDeleteAdminTransactionRequest,
): Promise<TProposedResponse> {
  return api.delete<TProposedResponse>(`/api/admin/transactions/${id}`, body);
}

/** Proposed (202): the deletion applies when another staff member approves it. */
export function useDeleteAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TDeleteAdminTransactionRequest }) =>
      deleteAdminTransaction(id, body),
    onSuccess: () => refreshChanges(queryClient),
  });
}
