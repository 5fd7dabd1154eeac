import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Logo } from '@web/components/ui/logo';
import { Spinner } from '@web/components/ui/spinner';
import { useSignOut } from '@web/lib/sign-out';
import { ShieldCheck } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { toast } from 'sonner';

// The route gate is part of the first bundle every visitor loads; the setup flow and its
// QR code library load only when someone actually has to set up 2FA.
const TwoFactorSetupFlow = lazy(() =>
  import('./two-factor-setup-flow').then((m) => ({ default: m.TwoFactorSetupFlow })),
);

/**
 * The forced setup of the route gate: 2FA is required and not on yet. Nothing else of the
 * portal is reachable from here; the only way out is signing out.
 */
export function TwoFactorGateSetup() {
  const signOut = useSignOut('/auth');
  const [cancelled, setCancelled] = useState(false);

  return (
    <main className="min-h-screen bg-bg px-4 py-8 sm:py-12">
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
        <Logo className="self-center" />
        <Card>
          <CardHeader>
            <span
              className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-surface-2 text-primary"
              aria-hidden
            >
              <ShieldCheck className="h-6 w-6" />
            </span>
            <h1 className="text-xl font-semibold text-fg">Set up two-factor authentication</h1>
            <CardDescription>
              Two-factor authentication is required for every Coffer account. Set it up with an
              authenticator app to continue: after your password, you will be asked for a 6-digit
              code each time you sign in.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {cancelled ? (
              <div className="flex flex-col items-center gap-3 py-6 text-center">
                <p role="status" className="text-sm text-fg">
                  Setup cancelled. What it showed (the key, the backup codes and any recovery
                  phrase) no longer works. A new setup gives you new ones.
                </p>
                <Button onClick={() => setCancelled(false)}>Start a new setup</Button>
              </div>
            ) : (
              <Suspense
                fallback={
                  <div className="flex justify-center py-10">
                    <Spinner className="h-8 w-8" label="Preparing two-factor authentication" />
                  </div>
                }
              >
                <TwoFactorSetupFlow
                  onDone={() => {
                    // The returned session is already in the cache; the gate lets them through.
                    toast.success('2FA Enabled', {
                      description: 'Two-factor authentication is now active on your account.',
                    });
                  }}
                  onCancelled={() => setCancelled(true)}
                />
              </Suspense>
            )}
          </CardContent>
        </Card>
        <Button
          variant="ghost"
          className="self-center"
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending}
        >
          {signOut.isPending ? 'Signing out...' : 'Sign out instead'}
        </Button>
      </div>
    </main>
  );
}
