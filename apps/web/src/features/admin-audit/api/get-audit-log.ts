import type { TAuditFilters, TAuditPage } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminAuditKeys } from './keys';

/** The query string of the filters, leaving out the empty ones. */
export function auditSearchParams(filters: TAuditFilters, page?: number): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (page && page > 1) params.set('page', String(page));
  return params;
}

export function getAuditLog(
  filters: TAuditFilters,
  page: number,
  signal?: AbortSignal,
): Promise<TAuditPage> {
  const qs = auditSearchParams(filters, page).toString();
  return api.get<TAuditPage>(`/api/admin/audit${qs ? `?${qs}` : ''}`, signal);
}

export const auditLogQueryOptions = (filters: TAuditFilters, page: number) =>
  queryOptions({
    queryKey: adminAuditKeys.list(filters, page),
    queryFn: ({ signal }) => getAuditLog(filters, page, signal),
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });

/** One page of the audit log, newest first. */
export function useAuditLog(filters: TAuditFilters, page: number) {
  return useQuery(auditLogQueryOptions(filters, page));
}
