import type { TAdminKycDetailResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminKycKeys } from './keys';

export function getKycSubmission(
  id: string,
  signal?: AbortSignal,
): Promise<TAdminKycDetailResponse> {
  return api.get<TAdminKycDetailResponse>(`/api/admin/kyc/${encodeURIComponent(id)}`, signal);
}

export const kycSubmissionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: adminKycKeys.detail(id),
    queryFn: ({ signal }) => getKycSubmission(id, signal),
    // Read fresh each time the dialog opens, and not kept once it closes: a decision is
    // never taken on an older version of a submission.
    staleTime: 0,
    gcTime: 0,
  });

/** One submission with its address, review and documents, for the review dialog. */
export function useKycSubmission(id: string) {
  return useQuery(kycSubmissionQueryOptions(id));
}
