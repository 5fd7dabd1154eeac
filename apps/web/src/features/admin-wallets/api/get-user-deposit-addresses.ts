import type { TAdminUserDepositAddressesResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminWalletsKeys } from './keys';

export function getUserDepositAddresses(
  userId: string,
  signal?: AbortSignal,
): Promise<TAdminUserDepositAddressesResponse> {
  return api.get<TAdminUserDepositAddressesResponse>(
    `/api/admin/users/${encodeURIComponent(userId)}/deposit-addresses`,
    signal,
  );
}

export const userDepositAddressesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: adminWalletsKeys.userDepositAddresses(userId),
    queryFn: ({ signal }) => getUserDepositAddresses(userId, signal),
  });

export function useUserDepositAddresses(userId: string | null) {
  return useQuery({ ...userDepositAddressesQueryOptions(userId ?? ''), enabled: userId !== null });
}
