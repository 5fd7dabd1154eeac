import type { TAdminTransactionResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

/**
 * Approves a crypto withdrawal for payment on chain, confirmed with the admin's step-up. The
 * server holds four eyes: whoever recorded or edited the request cannot approve it.
 */
export function approvePayout(id: string, stepUp: TStepUp): Promise<TAdminTransactionResponse> {
  return api.post<TAdminTransactionResponse>(`/api/admin/withdrawals/${id}/approve`, { stepUp });
}

export function useApprovePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stepUp }: { id: string; stepUp: TStepUp }) => approvePayout(id, stepUp),
    // The approved payout also joins the Payouts screen's waiting list.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.transactions() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.payouts() }),
      ]),
  });
}
