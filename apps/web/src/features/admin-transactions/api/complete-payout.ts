import type { TAdminTransactionResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

/**
 * Completes a withdrawal (chain hash) or bank transfer (bank reference), confirmed with the
 * admin's fresh second factor (step-up).
 */
export function completePayout(
  id: string,
  reference: string,
  stepUp: TStepUp,
): Promise<TAdminTransactionResponse> {
  return api.post<TAdminTransactionResponse>(`/api/admin/withdrawals/${id}/complete`, {
    reference,
    stepUp,
  });
}

export function useCompletePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reference, stepUp }: { id: string; reference: string; stepUp: TStepUp }) =>
      completePayout(id, reference, stepUp),
    // A crypto payout also leaves the Payouts screen's waiting list.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.payouts() }),
      ]),
  });
}
