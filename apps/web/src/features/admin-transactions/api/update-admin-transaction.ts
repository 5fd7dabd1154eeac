import type { TAdminTransactionResponse, TUpdateAdminTransactionRequest } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

export function updateAdminTransaction(
  id: string,
  body: TUpdateAdminTransactionRequest,
): Promise<TAdminTransactionResponse> {
  return api.patch<TAdminTransactionResponse>(`/api/admin/transactions/${id}`, body);
}

export function useUpdateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TUpdateAdminTransactionRequest }) =>
      updateAdminTransaction(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
  });
}
