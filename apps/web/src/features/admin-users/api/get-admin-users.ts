import type { TAdminUserFiguresResponse, TAdminUsersResponse } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { type AdminUsersParams, adminUsersKeys } from './keys';

export const ADMIN_USERS_PAGE_SIZE = 25;
/** the users view refetches wallet figures every 5 s. */
export const FIGURES_REFRESH_MS = 5_000;

export type { AdminUsersParams } from './keys';

/** `fresh`: recount the summary figures now rather than take ones up to 5 s old. */
export function getAdminUsers(
  { q, page }: AdminUsersParams,
  signal?: AbortSignal,
  fresh = false,
): Promise<TAdminUsersResponse> {
  const params = new URLSearchParams({
    q,
    page: String(page),
    pageSize: String(ADMIN_USERS_PAGE_SIZE),
    ...(fresh ? { fresh: 'true' } : {}),
  });
  return api.get<TAdminUsersResponse>(`/api/admin/users?${params}`, signal);
}

export const adminUsersQueryOptions = (params: AdminUsersParams) =>
  queryOptions({
    queryKey: adminUsersKeys.list(params),
    queryFn: ({ signal }) => getAdminUsers(params, signal),
  });

export function useAdminUsers(params: AdminUsersParams) {
  return useQuery({ ...adminUsersQueryOptions(params), placeholderData: keepPreviousData });
}

/** Refresh Data: the same page again, with the summary recounted. */
export function useRefreshAdminUsers(params: AdminUsersParams) {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      ...adminUsersQueryOptions(params),
      queryFn: ({ signal }) => getAdminUsers(params, signal, true),
      staleTime: 0,
    });
}

export function getAdminUserFigures(
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<TAdminUserFiguresResponse> {
  const params = new URLSearchParams({ ids: ids.join(',') });
  return api.get<TAdminUserFiguresResponse>(`/api/admin/users/figures?${params}`, signal);
}

export const adminUserFiguresQueryOptions = (ids: readonly string[]) =>
  queryOptions({
    queryKey: adminUsersKeys.figures(ids),
    queryFn: ({ signal }) => getAdminUserFigures(ids, signal),
    refetchInterval: FIGURES_REFRESH_MS,
    staleTime: 0,
  });

/** Portfolio and staking figures of the rows on screen, refreshed every 5 s. */
export function useAdminUserFigures(ids: readonly string[]) {
  return useQuery({ ...adminUserFiguresQueryOptions(ids), enabled: ids.length > 0 });
}
