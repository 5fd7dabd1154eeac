import type { TBankDetailsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { bankKeys } from './keys';

export function getBankDetails(signal?: AbortSignal): Promise<TBankDetailsResponse> {
  return api.get<TBankDetailsResponse>('/api/bank-details', signal);
}

// Bank details are personal: kept in memory only while a screen shows them, and for a
// minute after (gcTime), never in storage.
export const bankDetailsQueryOptions = () =>
  queryOptions({
    queryKey: bankKeys.details(),
    queryFn: ({ signal }) => getBankDetails(signal),
    staleTime: 0,
    gcTime: 60_000,
  });

/** The customer's saved bank details, or null when none are saved. */
export function useBankDetails() {
  return useQuery(bankDetailsQueryOptions());
}
