import type { TAdminKycListResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKycKeys } from './keys';

export function getKycSubmissions(signal?: AbortSignal): Promise<TAdminKycListResponse> {
  return api.get<TAdminKycListResponse>('/api/admin/kyc', signal);
}

export const kycSubmissionsQueryOptions = () =>
  queryOptions({
    queryKey: adminKycKeys.list(),
    queryFn: ({ signal }) => getKycSubmissions(signal),
    staleTime: 0,
  });

/** Every KYC submission, newest first, with the customer's e-mail. */
export function useKycSubmissions() {
  return useQuery(kycSubmissionsQueryOptions());
}
