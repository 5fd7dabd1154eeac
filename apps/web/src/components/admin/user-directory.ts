import type { TAdminDirectoryUser, TAdminUserDirectory } from '@coffer/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKeys } from '@web/lib/query-keys';

export type PickedUser = TAdminDirectoryUser;

export function getUserDirectory(q: string, signal?: AbortSignal): Promise<TAdminUserDirectory> {
  const params = new URLSearchParams({ q, limit: '20' });
  return api.get<TAdminUserDirectory>(`/api/admin/user-directory?${params}`, signal);
}

export const userDirectoryQueryOptions = (q: string) =>
  queryOptions({
    queryKey: adminKeys.userDirectory(q),
    queryFn: ({ signal }) => getUserDirectory(q, signal),
    staleTime: 30_000,
  });

/** The name an admin knows a customer by: full name, else username, else e-mail. */
export function userDisplayName(u: Pick<PickedUser, 'email' | 'fullName' | 'username'>): string {
  return u.fullName?.trim() || u.username?.trim() || u.email;
}
