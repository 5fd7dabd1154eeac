import type { TProposedResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

/**
 * Proposes completing a withdrawal (chain hash) or bank transfer (bank reference), confirmed
 * with the admin's fresh second factor (step-up): 202, it is marked paid when another staff
 * member approves it.
 */
export function completePayout(
  id: string,
  reference: string,
  stepUp: TStepUp,
): Promise<TProposedResponse> {
  return api.post<TProposedResponse>(`/api/admin/withdrawals/${id}/complete`, {
    reference,
    stepUp,
  });
}

export function useCompletePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reference, stepUp }: { id: string; reference: string; stepUp: TStepUp }) =>
      completePayout(id, reference, stepUp),
    // Nothing is paid yet: the queues change when the completion is approved.
    onSuccess: () => refreshChanges(queryClient),
  });
}
