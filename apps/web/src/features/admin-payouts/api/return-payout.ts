import type { TProposedResponse, TStepUp } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';
import { refreshPayouts } from './invalidate';

/**
 * Proposes paying a reversed payout again (back to approved): nothing changes until another
 * staff member approves the change.
 */
export function returnPayout(
  id: string,
  reason: string,
  stepUp: TStepUp,
): Promise<TProposedResponse> {
  return api.post<TProposedResponse>(`/api/admin/payouts/${encodeURIComponent(id)}/return`, {
    reason,
    stepUp,
  });
}

export function useReturnPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason, stepUp }: { id: string; reason: string; stepUp: TStepUp }) =>
      returnPayout(id, reason, stepUp),
    onSettled: () =>
      Promise.all([
        refreshPayouts(queryClient),
        queryClient.invalidateQueries({ queryKey: adminKeys.changes() }),
      ]),
  });
}
