import type { TDecidedChangeResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { refreshChanges } from '@web/lib/staff';

export type TDecision = 'approve' | 'reject';

export function decideChange(input: {
  id: string;
  decision: TDecision;
  stepUp: TStepUp;
}): Promise<TDecidedChangeResponse> {
  return api.post<TDecidedChangeResponse>(
    `/api/admin/changes/${encodeURIComponent(input.id)}/${input.decision}`,
    { stepUp: input.stepUp },
  );
}

/**
 * Approves (it applies then), rejects or withdraws a proposed change. An approval may change
 * anything, a balance, an address, a setting, so every cached answer is refetched; a
 * refusal (decided or expired meanwhile) refetches the queue.
 */
export function useDecideChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideChange,
    onSuccess: (_data, input) =>
      input.decision === 'approve' ? queryClient.invalidateQueries() : refreshChanges(queryClient),
    onError: () => void refreshChanges(queryClient),
  });
}
