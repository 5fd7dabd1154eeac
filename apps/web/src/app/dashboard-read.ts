import type { TDashboardResponse } from '@coffer/shared';
import type { QueryClient } from '@tanstack/react-query';
import { fileDashboard, fileUnder } from '@web/features/dashboard/api/read-dashboard';
import { publicInfoQueryOptions } from '@web/features/marketing/api/get-public-info';

/**
 * Files the dashboard's one read under the queries that show it, the portal menu's public
 * figures (its support link) among them. Its own chunk, loaded beside the page's code:
 * the public pages never carry it.
 */
export function fileDashboardRead(
  queryClient: QueryClient,
  answer: Promise<TDashboardResponse>,
): void {
  fileDashboard(queryClient, answer);
  fileUnder(
    queryClient,
    publicInfoQueryOptions().queryKey,
    answer.then((a) => a.publicInfo),
  );
}
