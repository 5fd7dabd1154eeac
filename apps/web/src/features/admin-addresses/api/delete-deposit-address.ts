import type { TOk } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function deleteDepositAddress(id: string) {
  return api.delete<TOk>(`/api/admin/deposit-addresses/${encodeURIComponent(id)}`);
}

export function useDeleteDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteDepositAddress(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'deposit-addresses'] }),
  });
}
