import type { TAdminAddressRequestsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminAddressesKeys } from './keys';

export function getAddressRequests(signal?: AbortSignal): Promise<TAdminAddressRequestsResponse> {
  return api.get<TAdminAddressRequestsResponse>('/api/admin/deposit-address-requests', signal);
}

export const addressRequestsQueryOptions = () =>
  queryOptions({
    queryKey: adminAddressesKeys.requests(),
    queryFn: ({ signal }) => getAddressRequests(signal),
    // Customers ask at any time: read afresh whenever the screen opens.
    staleTime: 0,
  });

/** Customers' open requests for a deposit address, oldest first. */
export function useAddressRequests() {
  return useQuery(addressRequestsQueryOptions());
}
