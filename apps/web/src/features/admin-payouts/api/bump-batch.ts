import type { TBatchWithFileResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshPayouts } from './invalidate';

/**
 * A Bitcoin batch stuck at too low a fee: a replacement paying the same outputs at `feeRate`
 * sat/vB, built with the admin's step-up; the answer carries its file to sign.
 */
export function bumpBatch(
  id: string,
  feeRate: number,
  stepUp: TStepUp,
): Promise<TBatchWithFileResponse> {
  return api.post<TBatchWithFileResponse>(
    `/api/admin/payouts/batches/${encodeURIComponent(id)}/bump`,
    { feeRate, stepUp },
  );
}

export function useBumpBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, feeRate, stepUp }: { id: string; feeRate: number; stepUp: TStepUp }) =>
      bumpBatch(id, feeRate, stepUp),
    onSettled: () => refreshPayouts(queryClient),
  });
}
