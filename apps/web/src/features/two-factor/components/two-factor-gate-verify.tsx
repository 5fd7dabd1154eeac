import { Logo } from '@web/components/ui/logo';
import { useSignOut } from '@web/lib/sign-out';
import { useState } from 'react';
import { ResetForm } from './gate-reset-form';
import { type TPasskeySlot, VerifyForm } from './gate-verify-form';

type Screen = 'verify' | 'reset';

/**
 * The second step of signing in: 2FA is on and this session has not passed it yet. On
 * success the session in the cache says so and the gate shows the page that was asked for.
 * `passkey` is the app's "Use a passkey" button (another feature's, so the app passes it in).
 */
export function TwoFactorGateVerify({ passkey }: { passkey?: TPasskeySlot } = {}) {
  const [screen, setScreen] = useState<Screen>('verify');
  const signOut = useSignOut('/auth');
  const cancel = () => signOut.mutate();

  return (
    <main className="min-h-screen bg-bg px-4 py-8 sm:py-12">
      <div className="mx-auto flex w-full max-w-md flex-col gap-6">
        <Logo className="self-center" />
        {screen === 'verify' ? (
          <VerifyForm
            passkey={passkey}
            onReset={() => setScreen('reset')}
            onCancel={cancel}
            cancelling={signOut.isPending}
          />
        ) : (
          <ResetForm
            onBack={() => setScreen('verify')}
            onCancel={cancel}
            cancelling={signOut.isPending}
          />
        )}
      </div>
    </main>
  );
}
