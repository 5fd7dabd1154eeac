import type { TBatchWithFileResponse, TPayoutChain, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshPayouts } from './invalidate';

/**
 * Builds one unsigned transaction paying the chain's approved payouts, confirmed with the
 * admin's step-up; the answer carries the file to sign outside Coffer.
 */
export function buildBatch(chain: TPayoutChain, stepUp: TStepUp): Promise<TBatchWithFileResponse> {
  return api.post<TBatchWithFileResponse>('/api/admin/payouts/batches', { chain, stepUp });
}

export function useBuildBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ chain, stepUp }: { chain: TPayoutChain; stepUp: TStepUp }) =>
      buildBatch(chain, stepUp),
    onSettled: () => refreshPayouts(queryClient),
  });
}
