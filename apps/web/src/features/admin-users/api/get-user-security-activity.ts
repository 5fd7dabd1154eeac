import type { TSecurityActivityResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminUsersKeys } from './keys';

export function getUserSecurityActivity(
  userId: string,
  signal?: AbortSignal,
): Promise<TSecurityActivityResponse> {
  return api.get<TSecurityActivityResponse>(
    `/api/admin/users/${encodeURIComponent(userId)}/security-activity`,
    signal,
  );
}

export const userSecurityActivityQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: adminUsersKeys.securityActivity(userId),
    queryFn: ({ signal }) => getUserSecurityActivity(userId, signal),
    // Every opening is a fresh, audited look: never a copy from an earlier one.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

/** One customer's newest security events, read only while `userId` is set. */
export function useUserSecurityActivity(userId: string | null) {
  return useQuery({
    ...userSecurityActivityQueryOptions(userId ?? ''),
    enabled: userId !== null,
  });
}
