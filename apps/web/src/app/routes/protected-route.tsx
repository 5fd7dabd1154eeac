import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { useSession } from '../../features/auth/api/get-session';
import { TwoFactorGateSetup } from '../../features/two-factor/components/two-factor-gate-setup';
import { TwoFactorGateVerify } from '../../features/two-factor/components/two-factor-gate-verify';

/**
 * The gate of customer.md §4, in order. It mirrors what the server enforces on every API
 * call (the server is the authority; this only decides what to show). It fails closed:
 * if the session cannot be read, nothing protected is shown.
 */
export function ProtectedRoute({ children, adminOnly = false }: { children: ReactNode; adminOnly?: boolean }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <PageSpinner />;
  if (session.isError) {
    return (
      <div role="alert" className="mx-auto max-w-md p-8 text-center text-muted">
        Could not check your session. Reload the page to try again.
      </div>
    );
  }
  const s = session.data;
  if (!s) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/auth?next=${encodeURIComponent(next)}`} replace />;
  }
  if (s.twoFactor.required && !s.twoFactor.enabled) return <TwoFactorGateSetup />;
  if (!s.twoFactor.verified) return <TwoFactorGateVerify />;
  if (adminOnly && !s.user.isAdmin) return <Navigate to="/dashboard" replace />;
  if (!s.hasRecoveryPhrase && location.pathname !== '/secret-combination') {
    return <Navigate to="/secret-combination" replace />;
  }
  return <>{children}</>;
}
