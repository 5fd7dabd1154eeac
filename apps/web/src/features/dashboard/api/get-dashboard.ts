import type { TDashboardResponse } from '@coffer/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { dashboardKeys } from './keys';

export function getDashboard(signal?: AbortSignal): Promise<TDashboardResponse> {
  return api.get<TDashboardResponse>('/api/dashboard', signal);
}

/**
 * The dashboard's one read as a query: asked for afresh each time (`staleTime` 0), and a
 * second ask while one is on its way joins it. Light enough for the app's first chunk, so
 * the read can leave before the code that files its parts (`read-dashboard.ts`) arrives.
 */
export const dashboardReadQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.read(),
    queryFn: ({ signal }) => getDashboard(signal),
    staleTime: 0,
    retry: false,
  });
