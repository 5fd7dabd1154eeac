import type { TKycStatusResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { kycKeys } from './keys';

export function getKycStatus(signal?: AbortSignal): Promise<TKycStatusResponse> {
  return api.get<TKycStatusResponse>('/api/kyc', signal);
}

export const kycStatusQueryOptions = () =>
  queryOptions({
    queryKey: kycKeys.status(),
    queryFn: ({ signal }) => getKycStatus(signal),
    // A reviewer's decision can arrive at any time: read afresh whenever the page opens.
    staleTime: 0,
  });

/** The customer's latest submission and whether the form may be (re)filled. */
export function useKycStatus() {
  return useQuery(kycStatusQueryOptions());
}
