import type { TFirstRunResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { dashboardKeys } from './keys';

export function dismissFirstRun(): Promise<TFirstRunResponse> {
  return api.post<TFirstRunResponse>('/api/first-run/dismiss');
}

/** Closes the checklist for the account (every device); the answer replaces the cached one. */
export function useDismissFirstRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissFirstRun,
    onSuccess: (state) => queryClient.setQueryData(dashboardKeys.firstRun(), state),
  });
}
