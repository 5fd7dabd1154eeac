import type { TAdminUserDepositAddressesResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function getUserDepositAddresses(
  userId: string,
  signal?: AbortSignal,
): Promise<TAdminUserDepositAddressesResponse> {
  return api.get<TAdminUserDepositAddressesResponse>(
    `/api/admin/users/${encodeURIComponent(userId)}/deposit-addresses`,
    signal,
  );
}

// Under ['admin', 'deposit-addresses'], so a change made on the addresses screen refreshes it.
export const userDepositAddressesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['admin', 'deposit-addresses', 'user', userId],
    queryFn: ({ signal }) => getUserDepositAddresses(userId, signal),
  });

export function useUserDepositAddresses(userId: string | null) {
  return useQuery({ ...userDepositAddressesQueryOptions(userId ?? ''), enabled: userId !== null });
}
