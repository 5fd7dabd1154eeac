import type { TBatchFileResponse, TStepUp } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';

/** A batch's unsigned file again, handed out with the admin's step-up. */
export function batchFile(id: string, stepUp: TStepUp): Promise<TBatchFileResponse> {
  return api.post<TBatchFileResponse>(`/api/admin/payouts/batches/${encodeURIComponent(id)}/file`, {
    stepUp,
  });
}

export function useBatchFile() {
  return useMutation({
    mutationFn: ({ id, stepUp }: { id: string; stepUp: TStepUp }) => batchFile(id, stepUp),
  });
}
