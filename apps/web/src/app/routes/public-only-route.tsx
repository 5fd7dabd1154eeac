import { useIsMutating } from '@tanstack/react-query';
import { PageSpinner } from '@web/components/ui/spinner';
import { safeNextPath } from '@web/lib/safe-next';
import { useSession } from '@web/lib/session';
import { SIGN_OUT_KEY } from '@web/lib/sign-out-key';
import type { ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';

/**
 * `/auth` and `/welcome`: a signed-in visitor goes on to the page the gate sent them from
 * (`?next=`) or to the dashboard. While a sign-out is finishing, the page is shown as is.
 * While the session is still being asked for, the page is shown too: it is the page the
 * build prerendered, so a visitor reads it at once, and a signed-in one moves on once known.
 */
export function PublicOnlyRoute({
  children,
  redirectText,
}: {
  children: ReactNode;
  redirectText?: string;
}) {
  const session = useSession();
  const [params] = useSearchParams();
  const signingOut = useIsMutating({ mutationKey: SIGN_OUT_KEY }) > 0;
  if (session.data && !signingOut) {
    return (
      <>
        {redirectText ? <PageSpinner text={redirectText} /> : null}
        <Navigate to={safeNextPath(params.get('next'))} replace />
      </>
    );
  }
  return <>{children}</>;
}
