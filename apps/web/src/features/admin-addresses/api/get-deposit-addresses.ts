import type { TAdminDepositAddressesResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminAddressesKeys } from './keys';

export function getDepositAddresses(
  q: string,
  signal?: AbortSignal,
): Promise<TAdminDepositAddressesResponse> {
  const params = q ? `?${new URLSearchParams({ q })}` : '';
  return api.get<TAdminDepositAddressesResponse>(`/api/admin/deposit-addresses${params}`, signal);
}

export const depositAddressesQueryOptions = (q: string) =>
  queryOptions({
    queryKey: adminAddressesKeys.list(q),
    queryFn: ({ signal }) => getDepositAddresses(q, signal),
  });

/** Every deposit address (or those matching the search), newest first, with the customer. */
export function useDepositAddresses(q: string) {
  return useQuery({ ...depositAddressesQueryOptions(q), placeholderData: keepPreviousData });
}
