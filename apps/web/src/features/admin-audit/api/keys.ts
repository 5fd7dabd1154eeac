import type { TAuditFilters } from '@coffer/shared';

export const adminAuditKeys = {
  all: () => ['admin', 'audit'] as const,
  list: (filters: TAuditFilters, page: number) =>
    [...adminAuditKeys.all(), 'list', filters, page] as const,
  verify: () => [...adminAuditKeys.all(), 'verify'] as const,
  facets: () => [...adminAuditKeys.all(), 'facets'] as const,
};
