import type { TSecurityActivityResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { accountSecurityKeys } from './keys';

export function getSecurityActivity(signal?: AbortSignal): Promise<TSecurityActivityResponse> {
  return api.get<TSecurityActivityResponse>('/api/security/activity', signal);
}

export const securityActivityQueryOptions = () =>
  queryOptions({
    queryKey: accountSecurityKeys.securityActivity(),
    queryFn: ({ signal }) => getSecurityActivity(signal),
    // What just happened to the account must show, not what happened five minutes ago.
    staleTime: 0,
  });

/** The account's newest security events, newest first. */
export function useSecurityActivity() {
  return useQuery(securityActivityQueryOptions());
}
