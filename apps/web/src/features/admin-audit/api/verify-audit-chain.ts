import type { TAuditVerifyResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminAuditKeys } from './keys';

export function verifyAuditChain(signal?: AbortSignal): Promise<TAuditVerifyResponse> {
  return api.get<TAuditVerifyResponse>('/api/admin/audit/verify', signal);
}

export const auditChainQueryOptions = () =>
  queryOptions({
    queryKey: adminAuditKeys.verify(),
    queryFn: ({ signal }) => verifyAuditChain(signal),
    staleTime: 60_000,
  });

/** Whether the audit log's hash chain holds, or the first row that breaks it. */
export function useAuditChain() {
  return useQuery(auditChainQueryOptions());
}
