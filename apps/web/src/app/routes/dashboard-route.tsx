import { useQueryClient } from '@tanstack/react-query';
import { PageSpinner } from '@web/components/ui/spinner';
import { lazy, Suspense, useEffect, useState } from 'react';
import { closeDashboard, dashboardPageChunk, openDashboard } from '../route-preload';

const DashboardPage = lazy(dashboardPageChunk);

/**
 * /dashboard: starts the page's one read as the route first renders, before the page's
 * components (and their queries) mount, so they find their data on its way; once per
 * showing, however often React renders the route before it mounts.
 */
export function DashboardRoute() {
  const queryClient = useQueryClient();
  useState(() => openDashboard(queryClient));
  useEffect(() => closeDashboard, []);
  return (
    <Suspense fallback={<PageSpinner />}>
      <DashboardPage />
    </Suspense>
  );
}
