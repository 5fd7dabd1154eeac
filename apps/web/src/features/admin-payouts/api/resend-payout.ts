import type { TResendPayoutResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshPayouts } from './invalidate';

/**
 * Sends a reversed payout's recorded signed transaction again, the same bytes, with the
 * admin's step-up; a refusal carries the node's words.
 */
export function resendPayout(id: string, stepUp: TStepUp): Promise<TResendPayoutResponse> {
  return api.post<TResendPayoutResponse>(`/api/admin/payouts/${encodeURIComponent(id)}/resend`, {
    stepUp,
  });
}

export function useResendPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stepUp }: { id: string; stepUp: TStepUp }) => resendPayout(id, stepUp),
    onSettled: () => refreshPayouts(queryClient),
  });
}
