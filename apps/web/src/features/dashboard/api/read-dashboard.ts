import { DASHBOARD_CHART_RANGE, type TDashboardResponse } from '@coffer/shared';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { moneyStatusArrived } from '@web/lib/money/get-money-status';
import { moneyKeys } from '@web/lib/money/keys';
import { dashboardKeys } from './keys';

/**
 * Files one part of the dashboard's answer under its own query while the answer is on its
 * way: the query is fetching from the moment the read starts, so a screen that asks for it
 * meanwhile waits for this answer instead of sending a request of its own. Should the read
 * fail, the query fails with it, and a screen that then shows it asks its own endpoint.
 */
export function fileUnder<T>(queryClient: QueryClient, queryKey: QueryKey, part: Promise<T>): void {
  void queryClient.prefetchQuery({ queryKey, queryFn: () => part, staleTime: 0, retry: false });
}

/**
 * Files each part of the dashboard's one read (GET /api/dashboard, on its way) under the
 * query the dashboard's components read (`wallets`, `staking`, the chart's default range,
 * …), so they keep their own hooks and make no request of their own. The app layer files
 * the parts other features show (the portal menu's public figures).
 */
export function fileDashboard(queryClient: QueryClient, answer: Promise<TDashboardResponse>): void {
  const part = <T>(pick: (a: TDashboardResponse) => T) => answer.then(pick);
  fileUnder(
    queryClient,
    moneyKeys.wallets(),
    part((a) => a.wallets),
  );
  fileUnder(
    queryClient,
    moneyKeys.prices(),
    part((a) => a.prices),
  );
  fileUnder(
    queryClient,
    moneyKeys.staking(),
    part((a) => a.staking),
  );
  fileUnder(
    queryClient,
    moneyKeys.status(),
    part((a) => moneyStatusArrived(a.moneyStatus)),
  );
  fileUnder(
    queryClient,
    dashboardKeys.portfolioHistory(DASHBOARD_CHART_RANGE),
    part((a) => a.portfolioHistory),
  );
  fileUnder(
    queryClient,
    dashboardKeys.firstRun(),
    part((a) => a.firstRun),
  );
}
