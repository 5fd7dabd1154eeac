import type { QueryClient } from '@tanstack/react-query';
import { fileUnder, readDashboard } from '@web/features/dashboard/api/get-dashboard';
import { publicInfoQueryOptions } from '@web/features/marketing/api/get-public-info';

/** The portal's code and the dashboard page's, each its own chunk (see router.tsx). */
export const portalLayoutChunk = () => import('./layouts/portal-layout');
export const dashboardPageChunk = () => import('../features/dashboard/components/dashboard-page');

/**
 * Whether this showing of the dashboard has had its read: from the route's first render
 * (or app start) until the route unmounts. React may render a route several times before
 * it mounts (and drop those renders), so a render alone does not count as a new showing.
 */
let readThisShowing = false;

/**
 * The dashboard's one read, with the parts that other features show filed too: the portal
 * menu's support link is in the operator's public figures.
 */
function startDashboardRead(queryClient: QueryClient): void {
  const answer = readDashboard(queryClient);
  fileUnder(
    queryClient,
    publicInfoQueryOptions().queryKey,
    answer.then((a) => a.publicInfo),
  );
  // A failed read is the parts' failure, each shown (and retried) where it is read.
  answer.catch(() => undefined);
}

/**
 * At app start, before anything renders: for the dashboard, its data and its code are asked
 * for at once, rather than the code after the session and the data after the code. A visitor
 * who is not signed in is refused the read and sent to sign in by the session's answer.
 */
export function preloadRoute(pathname: string, queryClient: QueryClient): void {
  if (pathname !== '/dashboard') return;
  readThisShowing = true;
  startDashboardRead(queryClient);
  void portalLayoutChunk();
  void dashboardPageChunk();
}

/**
 * Each time the dashboard opens, its one read: asked for as the route renders, so it runs
 * while the page's code loads. The first showing after app start uses the read started then.
 */
export function openDashboard(queryClient: QueryClient): void {
  if (readThisShowing) return;
  readThisShowing = true;
  startDashboardRead(queryClient);
}

/** The dashboard route unmounted: its next showing reads afresh. */
export function closeDashboard(): void {
  readThisShowing = false;
}
