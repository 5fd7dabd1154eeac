import type { TActiveSessionsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { accountSecurityKeys } from './keys';

export function getSessions(signal?: AbortSignal): Promise<TActiveSessionsResponse> {
  return api.get<TActiveSessionsResponse>('/api/sessions', signal);
}

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: accountSecurityKeys.sessions(),
    queryFn: ({ signal }) => getSessions(signal),
    // A list of who is signed in must be as of now, not five minutes ago.
    staleTime: 0,
  });

/** The customer's signed-in devices, this one marked. */
export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
