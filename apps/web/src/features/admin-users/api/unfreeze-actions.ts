import type { TStepUp, TUnfreezeState } from '@coffer/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminUsersKeys } from './keys';

const base = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/unfreeze`;

export const unfreezeStateQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: adminUsersKeys.unfreeze(userId),
    queryFn: ({ signal }) => api.get<TUnfreezeState>(base(userId), signal),
  });

/** Where a frozen account's review stands: a request waiting for a second admin, or none. */
export function useUnfreezeState(userId: string, enabled = true) {
  return useQuery({ ...unfreezeStateQueryOptions(userId), enabled });
}

export type UnfreezeStep =
  | { kind: 'request'; reason: string }
  | { kind: 'approve' }
  | { kind: 'reject'; reason: string };

function send(userId: string, step: UnfreezeStep, stepUp: TStepUp): Promise<TUnfreezeState> {
  if (step.kind === 'request') return api.post(base(userId), { reason: step.reason, stepUp });
  if (step.kind === 'approve') return api.post(`${base(userId)}/approve`, { stepUp });
  return api.post(`${base(userId)}/reject`, { reason: step.reason, stepUp });
}

/**
 * One step of lifting a freeze (four eyes: one admin asks, another approves or rejects),
 * each with a fresh second factor; the users list and the review are read again after.
 */
export function useUnfreezeStep(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { step: UnfreezeStep; stepUp: TStepUp }) => send(userId, v.step, v.stepUp),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersKeys.all() }),
  });
}
