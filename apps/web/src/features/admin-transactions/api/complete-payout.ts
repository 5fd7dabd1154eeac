import type { TAdminTransactionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Completes a withdrawal (chain hash) or bank transfer (bank reference). */
export function completePayout(id: string, reference: string): Promise<TAdminTransactionResponse> {
  return api.post<TAdminTransactionResponse>(`/api/admin/withdrawals/${id}/complete`, {
    reference,
  });
}

export function useCompletePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reference }: { id: string; reference: string }) =>
      completePayout(id, reference),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'transactions'] }),
  });
}
