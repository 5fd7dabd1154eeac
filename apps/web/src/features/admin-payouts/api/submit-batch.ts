import type { TStepUp, TSubmitBatchResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshPayouts } from './invalidate';

/**
 * Hands the signed file back: Coffer checks it pays exactly the batch (refusing it, listing
 * the differences, otherwise) and broadcasts what was not sent before.
 */
export function submitBatch(
  id: string,
  signed: string,
  stepUp: TStepUp,
): Promise<TSubmitBatchResponse> {
  return api.post<TSubmitBatchResponse>(
    `/api/admin/payouts/batches/${encodeURIComponent(id)}/submit`,
    { signed, stepUp },
  );
}

export function useSubmitBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, signed, stepUp }: { id: string; signed: string; stepUp: TStepUp }) =>
      submitBatch(id, signed, stepUp),
    onSettled: () => refreshPayouts(queryClient),
  });
}
