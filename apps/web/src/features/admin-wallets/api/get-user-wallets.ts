import type { TAdminUserWalletsResponse } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminWalletsKeys } from './keys';

export function getUserWallets(
  userId: string,
  signal?: AbortSignal,
): Promise<TAdminUserWalletsResponse> {
  return api.get<TAdminUserWalletsResponse>(
    `/api/admin/users/${encodeURIComponent(userId)}/wallets`,
    signal,
  );
}

export const userWalletsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: adminWalletsKeys.user(userId),
    queryFn: ({ signal }) => getUserWallets(userId, signal),
    // wallet figures refresh every 5 s.
    refetchInterval: 5_000,
  });

/** The wallets of the customer an admin picked; nothing is fetched until one is picked. */
export function useUserWallets(userId: string | null) {
  return useQuery({ ...userWalletsQueryOptions(userId ?? ''), enabled: userId !== null });
}
