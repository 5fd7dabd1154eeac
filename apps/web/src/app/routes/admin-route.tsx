import { useSession } from '@web/lib/session';
import { Navigate, Outlet } from 'react-router';

/**
 * Admin screens, inside the gate: a non-admin goes to /dashboard. The server refuses their
 * API calls anyway (403); this only decides what to show.
 */
export function AdminRoute() {
  const session = useSession();
  if (!session.data?.user.isAdmin) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
