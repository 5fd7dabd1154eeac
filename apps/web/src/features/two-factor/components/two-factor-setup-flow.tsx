import type { TSession } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Spinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { useSetupTwoFactor } from '../api/setup-two-factor';
import { ConfirmStep } from './setup-confirm-step';
import { SetupStep } from './setup-secret-step';

/**
 * The two-step 2FA setup used by the forced setup screen and by Settings: step 1 shows
 * the secret (QR code, key and, on a phone, a link into the authenticator app), the new
 * recovery phrase and the backup codes; step 2 asks three words of the phrase back and a
 * code from the authenticator app. The server keeps the setup until it is confirmed or
 * cancelled, so a reload shows the same one again.
 */
export function TwoFactorSetupFlow({
  onDone,
  onCancelled,
}: {
  onDone: (session: TSession | null) => void;
  onCancelled: () => void;
}) {
  const { mutate: startSetup, data, error, isError } = useSetupTwoFactor();
  const started = useRef(false);
  const [step, setStep] = useState<1 | 2>(1);

  function runSetup() {
    startSetup(undefined, {
      onError: (err) => {
        console.error('2FA setup failed', err);
        toast.error('Setup Failed', { description: errorMessage(err, 'Failed to setup 2FA') });
      },
    });
  }

  // Once per mount (StrictMode runs effects twice in development; the ref survives that
  // second run). A second call would be harmless, as it answers with the same setup.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once on mount by design
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    runSetup();
  }, []);

  if (!data) {
    if (isError) {
      return (
        <div className="flex flex-col items-center gap-3 py-6 text-center">
          <p role="alert" className="text-sm text-danger">
            {errorMessage(error, 'Failed to setup 2FA')}
          </p>
          <Button variant="outline" onClick={runSetup}>
            Try again
          </Button>
        </div>
      );
    }
    return (
      <div className="flex flex-col items-center gap-3 py-10 text-muted">
        <Spinner className="h-8 w-8" label="Preparing two-factor authentication" />
        <p>Preparing your secret key...</p>
      </div>
    );
  }

  return step === 1 ? (
    <SetupStep setup={data} onContinue={() => setStep(2)} onCancelled={onCancelled} />
  ) : (
    <ConfirmStep setup={data} onBack={() => setStep(1)} onDone={onDone} />
  );
}
