import type { TAdminOverview } from '@coffer/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { adminDashboardKeys } from './keys';

export function getAdminOverview(signal?: AbortSignal): Promise<TAdminOverview> {
  return api.get<TAdminOverview>('/api/admin/overview', signal);
}

// A health figure is only worth something while it is fresh.
export const adminOverviewQueryOptions = () =>
  queryOptions({
    queryKey: adminDashboardKeys.overview(),
    queryFn: ({ signal }) => getAdminOverview(signal),
    staleTime: 30_000,
  });

/** Live figures for the admin dashboard (product.md M5). */
export function useAdminOverview() {
  return useQuery(adminOverviewQueryOptions());
}
