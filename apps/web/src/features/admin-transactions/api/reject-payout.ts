import type { TAdminTransactionResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Rejects a payout; the reason is shown to the customer. */
export function rejectPayout(id: string, reason: string): Promise<TAdminTransactionResponse> {
  return api.post<TAdminTransactionResponse>(`/api/admin/withdrawals/${id}/reject`, { reason });
}

export function useRejectPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => rejectPayout(id, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'transactions'] }),
  });
}
