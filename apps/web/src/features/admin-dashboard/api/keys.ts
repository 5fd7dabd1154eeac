import { adminKeys } from '@web/lib/query-keys';

export const adminDashboardKeys = {
  overview: () => ['admin', 'overview'] as const,
  // The shared root: every screen that proposes a change refreshes it.
  changes: () => adminKeys.changes(),
};
