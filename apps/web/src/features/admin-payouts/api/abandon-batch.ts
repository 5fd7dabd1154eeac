import type { TBatchResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshPayouts } from './invalidate';

/**
 * Abandons a built batch nobody signed, with the admin's step-up: its payouts are approved
 * again and its inputs (Bitcoin) or nonces (Ethereum) are free for the next build.
 */
export function abandonBatch(id: string, stepUp: TStepUp): Promise<TBatchResponse> {
  return api.post<TBatchResponse>(`/api/admin/payouts/batches/${encodeURIComponent(id)}/abandon`, {
    stepUp,
  });
}

export function useAbandonBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, stepUp }: { id: string; stepUp: TStepUp }) => abandonBatch(id, stepUp),
    onSettled: () => refreshPayouts(queryClient),
  });
}
