import type { TOk } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function deleteAdminTransaction(id: string, reason: string): Promise<TOk> {
  return api.delete<TOk>(`/api/admin/transactions/${id}`, { reason });
}

export function useDeleteAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      deleteAdminTransaction(id, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'transactions'] }),
  });
}
