import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { useSession } from '../../features/auth/api/get-session';

/** `/auth` and `/welcome`: a signed-in user goes to the dashboard instead. */
export function PublicOnlyRoute({ children, redirectText }: { children: ReactNode; redirectText?: string }) {
  const session = useSession();
  if (session.isPending) return <PageSpinner />;
  if (session.data) {
    return (
      <>
        {redirectText ? <PageSpinner text={redirectText} /> : null}
        <Navigate to="/dashboard" replace />
      </>
    );
  }
  return <>{children}</>;
}
