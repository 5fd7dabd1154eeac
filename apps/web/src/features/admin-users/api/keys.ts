import { adminKeys } from '@web/lib/query-keys';

/** The users screen's search and page. */
export type AdminUsersParams = { q: string; page: number };

export const adminUsersKeys = {
  all: () => ['admin', 'users'] as const,
  list: (params: AdminUsersParams) => [...adminUsersKeys.all(), params] as const,
  figures: (ids: readonly string[]) => [...adminUsersKeys.all(), 'figures', ids] as const,
  securityActivity: (userId: string) =>
    [...adminUsersKeys.all(), userId, 'security-activity'] as const,
  unfreeze: (userId: string) => [...adminUsersKeys.all(), userId, 'unfreeze'] as const,
  // The shared root: the Staff screen reads and refreshes the same list.
  staff: () => adminKeys.staff(),
};
