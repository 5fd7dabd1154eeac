import type { TDeleteAdminTransactionRequest, TOk } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

export function deleteAdminTransaction(
  id: string,
  body: TDeleteAdminTransactionRequest,
): Promise<TOk> {
  return api.delete<TOk>(`/api/admin/transactions/${id}`, body);
}

export function useDeleteAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TDeleteAdminTransactionRequest }) =>
      deleteAdminTransaction(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
  });
}
