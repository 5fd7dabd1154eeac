import { useQueryClient } from '@tanstack/react-query';
import { useLiveMoney } from '@web/lib/money/live-money';
import { useRealtimeConnection } from '@web/lib/realtime';
import { sessionQueryOptions, useSession } from '@web/lib/session';
import { useMemo } from 'react';
import { Outlet } from 'react-router';
import { PortalMenu } from './portal-menu';
import { TopBar } from './top-bar';

/**
 * What the portal hands the pages it renders (`useOutletContext`). Features may not import
 * each other, so the session reaches them from here, the app layer.
 */
export type TPortalContext = {
  user: { id: string; email: string; isAdmin: boolean } | null;
  /** Re-reads the session after something that changes it (e.g. a new recovery phrase). */
  refreshSession: () => Promise<void>;
};

/** The signed-in portal: top bar, sidebar from 1024 px, slide-in menu (from the bar) below that. */
export default function PortalLayout() {
  const session = useSession();
  const queryClient = useQueryClient();
  // The tab's one realtime socket, open while the user is signed in past 2FA.
  useRealtimeConnection();
  useLiveMoney();
  const user = session.data?.user ?? null;
  const context = useMemo<TPortalContext>(
    () => ({
      user,
      refreshSession: () =>
        queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
    }),
    [user, queryClient],
  );

  return (
    <div className="min-h-screen bg-bg text-fg">
      <a
        href="#portal-main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:text-fg focus:shadow"
      >
        Skip to content
      </a>
      <TopBar />
      <aside
        aria-label="Sidebar"
        className="fixed top-16 bottom-0 left-0 hidden w-64 border-r border-border bg-surface lg:block"
      >
        <PortalMenu />
      </aside>
      <main id="portal-main" tabIndex={-1} className="px-4 py-6 pb-8 sm:px-6 lg:pl-72">
        <div className="mx-auto w-full max-w-6xl">
          <Outlet context={context} />
        </div>
      </main>
    </div>
  );
}
