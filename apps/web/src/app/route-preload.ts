import type { QueryClient } from '@tanstack/react-query';
import { dashboardReadQueryOptions } from '@web/features/dashboard/api/get-dashboard';
import { sessionQueryOptions } from '@web/lib/session';

/**
 * Whether this showing of the dashboard has had its read: from the route's first render
 * (or app start) until the route unmounts. React may render a route several times before
 * it mounts (and drop those renders), so a render alone does not count as a new showing.
 */
let readThisShowing = false;

type ReadModule = typeof import('./dashboard-read');
/** The read's code, once loaded: from then on a read starts at once, as the route renders. */
let readModule: ReadModule | null = null;
/** Resolves once the current showing's read has its parts filed under their queries. */
let readStarted: Promise<void> = Promise.resolve();

/**
 * Sends the read at once (its query is light enough for the app's first chunk), then files
 * its parts with the code that knows them: at once if it is here, else when it arrives.
 */
function startRead(queryClient: QueryClient): void {
  const answer = queryClient.fetchQuery(dashboardReadQueryOptions());
  // A failed read is the parts' failure, each shown (and retried) where it is read.
  answer.catch(() => undefined);
  if (readModule) {
    readModule.fileDashboardRead(queryClient, answer);
    return;
  }
  readStarted = import('./dashboard-read').then((m) => {
    readModule = m;
    m.fileDashboardRead(queryClient, answer);
  });
}

/**
 * A chunk that shows the dashboard's data, loaded only once the read is under way: its
 * components then find their queries on their way and send no request of their own.
 */
function afterRead<T>(chunk: Promise<T>): Promise<T> {
  return Promise.all([chunk, readStarted]).then(([m]) => m);
}

/** The portal's code and the dashboard page's, each its own chunk (see router.tsx). */
export const portalLayoutChunk = () => afterRead(import('./layouts/portal-layout'));
export const dashboardPageChunk = () =>
  afterRead(import('../features/dashboard/components/dashboard-page'));

/**
 * At app start, before anything renders: for the dashboard, its data and its code are asked
 * for at once, rather than the code after the session and the data after the code. A visitor
 * who is not signed in is refused the read and sent to sign in by the session's answer.
 */
export function preloadRoute(pathname: string, queryClient: QueryClient): void {
  if (pathname !== '/dashboard') return;
  // The session and the read first: on a connection that takes a few requests at a time,
  // they would otherwise wait behind the dozens of chunks asked for below.
  void queryClient.prefetchQuery(sessionQueryOptions());
  readThisShowing = true;
  startRead(queryClient);
  void portalLayoutChunk();
  void dashboardPageChunk();
}

/**
 * Each time the dashboard opens, its one read: asked for as the route renders, so it runs
 * while the page's code loads. The first showing after app start uses the read started then.
 */
export function openDashboard(queryClient: QueryClient): void {
  // A read refused at app start (signed out then, signed in since), or dropped with the
  // cache at sign-in or sign-out, does not count.
  const read = queryClient.getQueryState(dashboardReadQueryOptions().queryKey);
  if (readThisShowing && read !== undefined && read.status !== 'error') return;
  readThisShowing = true;
  startRead(queryClient);
}

/** The dashboard route unmounted: its next showing reads afresh. */
export function closeDashboard(): void {
  readThisShowing = false;
}
