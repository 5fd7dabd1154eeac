import type { TAdminTransactionResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

/** Rejects a payout, confirmed with the admin's step-up; the reason is shown to the customer. */
export function rejectPayout(
  id: string,
  reason: string,
  stepUp: TStepUp,
): Promise<TAdminTransactionResponse> {
  return api.post<TAdminTransactionResponse>(`/api/admin/withdrawals/${id}/reject`, {
    reason,
    stepUp,
  });
}

export function useRejectPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason, stepUp }: { id: string; reason: string; stepUp: TStepUp }) =>
      rejectPayout(id, reason, stepUp),
    // A crypto payout also leaves the Payouts screen's waiting list.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.payouts() }),
      ]),
  });
}
