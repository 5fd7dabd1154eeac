import type { TAdminUserRow } from '@coffer/shared';

/** name, else username, else 'Unknown User'. */
export function displayName(u: Pick<TAdminUserRow, 'fullName' | 'username'>): string {
  return u.fullName?.trim() || u.username?.trim() || 'Unknown User';
}
