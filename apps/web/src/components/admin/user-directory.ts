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

type TNamed = Pick<PickedUser, 'email' | 'fullName' | 'username'>;

/**
 * The name staff know a person by, on every admin screen, list, toast and dialog: full name,
 * else username, else their e-mail (never a placeholder such as "Unknown User").
 */
export function userDisplayName(u: TNamed): string {
  return u.fullName?.trim() || u.username?.trim() || u.email;
}

/** The e-mail to show beside the name, or null when the name already is the e-mail. */
export function userEmailBesideName(u: TNamed): string | null {
  return userDisplayName(u) === u.email ? null : u.email;
}

/** 'Alice Nguyen (alice@example.com)', or the e-mail alone when it is the name. */
export function userNameWithEmail(u: TNamed): string {
  const email = userEmailBesideName(u);
  return email === null ? userDisplayName(u) : `${userDisplayName(u)} (${email})`;
}
