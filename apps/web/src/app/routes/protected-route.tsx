import { PageSpinner } from '@web/components/ui/spinner';
import { useSession } from '@web/lib/session';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';

// The 2FA screens are their own chunk: public pages, which share this file's chunk, never load them.
const TwoFactorGateSetup = lazy(() =>
  import('@web/features/two-factor/components/two-factor-gate-setup').then((m) => ({
    default: m.TwoFactorGateSetup,
  })),
);
const TwoFactorGateVerify = lazy(() =>
  import('@web/features/two-factor/components/two-factor-gate-verify').then((m) => ({
    default: m.TwoFactorGateVerify,
  })),
);

// The idle warning holds a dialog: its own chunk too, so the public pages never carry it.
const SessionExpiryWarning = lazy(() =>
  import('@web/components/session-expiry/session-expiry-warning').then((m) => ({
    default: m.SessionExpiryWarning,
  })),
);

const UsePasskeyButton = lazy(() =>
  import('@web/features/passkeys/components/use-passkey-button').then((m) => ({
    default: m.UsePasskeyButton,
  })),
);

/**
 * The gate of , in order. It mirrors what the server enforces on every API
 * call (the server is the authority; this only decides what to show). It fails closed:
 * if the session cannot be read, nothing protected is shown.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
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
  if (s.twoFactor.required && !s.twoFactor.enabled) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <TwoFactorGateSetup />
      </Suspense>
    );
  }
  if (!s.twoFactor.verified) {
    return (
      <Suspense fallback={<PageSpinner />}>
        <TwoFactorGateVerify
          passkey={(offerCode) => (
            <Suspense fallback={null}>
              <UsePasskeyButton onNoPasskey={offerCode} />
            </Suspense>
          )}
        />
      </Suspense>
    );
  }
  // Staff never use a recovery phrase (their setup makes none): only customers are sent to
  // make one.
  if (!s.hasRecoveryPhrase && !s.user.isAdmin && location.pathname !== '/secret-combination') {
    return <Navigate to="/secret-combination" replace />;
  }
  return (
    <>
      <Suspense fallback={null}>
        <SessionExpiryWarning />
      </Suspense>
      {children}
    </>
  );
}
