import { useQueryClient } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { dashboardPageChunk, openDashboard } from '../route-preload';

const DashboardPage = lazy(dashboardPageChunk);

/**
 * /dashboard: starts the page's one read as the route first renders, before the page's
 * components (and their queries) mount, so they find their data on its way.
 */
export function DashboardRoute() {
  const queryClient = useQueryClient();
  useState(() => openDashboard(queryClient));
  return <DashboardPage />;
}
