import type { TAuditFacets } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminAuditKeys } from './keys';

export function getAuditFacets(signal?: AbortSignal): Promise<TAuditFacets> {
  return api.get<TAuditFacets>('/api/admin/audit/facets', signal);
}

export const auditFacetsQueryOptions = () =>
  queryOptions({
    queryKey: adminAuditKeys.facets(),
    queryFn: ({ signal }) => getAuditFacets(signal),
    staleTime: 30_000,
  });

/** The actions and admins that appear in the log, for the filters. */
export function useAuditFacets() {
  return useQuery(auditFacetsQueryOptions());
}
