import type { TProposedResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

/**
 * Proposes deleting an address (202): the customer's deposits stop landing once another
 * staff member approves it, so it takes a step-up.
 */
export function deleteDepositAddress(id: string, stepUp: TStepUp) {
  return api.delete<TProposedResponse>(`/api/admin/deposit-addresses/${encodeURIComponent(id)}`, {
    stepUp,
  });
}

export function useDeleteDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stepUp }: { id: string; stepUp: TStepUp }) =>
      deleteDepositAddress(id, stepUp),
    onSuccess: () => refreshChanges(queryClient),
  });
}
