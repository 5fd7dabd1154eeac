import type { TAdminKycListQuery, TAdminKycListResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKycKeys } from './keys';

export function getKycSubmissions(
  query: TAdminKycListQuery,
  signal?: AbortSignal,
): Promise<TAdminKycListResponse> {
  const params = new URLSearchParams({
    q: query.q,
    status: query.status,
    order: query.order,
    limit: String(query.limit),
  });
  if (query.cursor) params.set('cursor', query.cursor);
  return api.get<TAdminKycListResponse>(`/api/admin/kyc?${params}`, signal);
}

export const kycSubmissionsQueryOptions = (query: TAdminKycListQuery) =>
  queryOptions({
    queryKey: adminKycKeys.list(query),
    queryFn: ({ signal }) => getKycSubmissions(query, signal),
    staleTime: 0,
    // Keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/** A page of KYC submissions, oldest first by default, with the customer's e-mail. */
export function useKycSubmissions(query: TAdminKycListQuery) {
  return useQuery(kycSubmissionsQueryOptions(query));
}
