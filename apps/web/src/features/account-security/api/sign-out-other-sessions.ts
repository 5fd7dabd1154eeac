import type { TSignOutOthersResponse } from '@coffer/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { sessionsQueryOptions } from './get-sessions';

export function signOutOtherSessions(): Promise<TSignOutOthersResponse> {
  return api.post<TSignOutOthersResponse>('/api/sessions/sign-out-others');
}

/** Signs out every device but this one; answers how many were signed out. */
export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherSessions,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey });
    },
  });
}
