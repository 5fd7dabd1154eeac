import { MSG, TOTP_DIGITS, type TSession, type TTwoFactorSetupResponse } from '@coffer/shared';
import { AlertTriangle, ArrowLeft, Copy, Download, KeyRound } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { FieldError } from '../../../components/ui/field-error';
import { Label } from '../../../components/ui/label';
import { QrCode } from '../../../components/ui/qr-code';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { useSetupTwoFactor } from '../api/setup-two-factor';
import { TotpCodeInput } from './totp-code-input';

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Copied to clipboard', { description: `${what} copied.` });
  } catch (err) {
    console.error('Copy to clipboard failed', err);
    toast.error('Copy failed', { description: 'Failed to copy to clipboard.' });
  }
}

function downloadText(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Groups of four are easier to type into an authenticator app by hand. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** Which message a failed confirmation shows: the server's where it says more than "wrong". */
function enableFailureMessage(err: unknown): string {
  if (err instanceof ApiError && ['RATE_LIMITED', 'CONFLICT', 'NETWORK'].includes(err.code)) {
    return err.message;
  }
  return MSG.invalidCode;
}

/**
 * The two-step 2FA setup used by the forced setup screen and by Settings: step 1 shows
 * the new secret (QR code and key), the recovery phrase when this setup created it, and
 * the backup codes; step 2 confirms a code from the authenticator app.
 */
export function TwoFactorSetupFlow({ onDone }: { onDone: (session: TSession | null) => void }) {
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

  // Once per mount: every setup call replaces the pending secret, and StrictMode runs
  // effects twice in development. The ref survives that second run.
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
    <SetupStep setup={data} onContinue={() => setStep(2)} />
  ) : (
    <ConfirmStep onBack={() => setStep(1)} onDone={onDone} />
  );
}

function SetupStep({
  setup,
  onContinue,
}: {
  setup: TTwoFactorSetupResponse;
  onContinue: () => void;
}) {
  const headingId = useId();
  return (
    <div className="flex flex-col gap-6">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">Step 1 of 2</p>

      <section aria-labelledby={headingId} className="flex flex-col gap-3">
        <h3 id={headingId} className="font-semibold text-fg">
          Scan the QR code
        </h3>
        <p className="text-sm text-muted">
          Open an authenticator app on your phone and scan this code. It adds your Coffer account
          and shows a new 6-digit code every 30 seconds.
        </p>
        <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
          <QrCode
            value={setup.otpauthUrl}
            label="QR code to add your Coffer account to an authenticator app"
            failedText="The QR code could not be drawn. Enter the key by hand instead."
          />
          <div className="flex w-full min-w-0 flex-col gap-2">
            <p className="text-sm text-fg">Can't scan it? Enter this key in the app instead:</p>
            <code className="break-all rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-sm text-fg">
              {groupSecret(setup.secret)}
            </code>
            <Button
              variant="outline"
              size="sm"
              className="self-start"
              onClick={() => void copyText(setup.secret, 'Secret key')}
            >
              <Copy className="h-4 w-4" aria-hidden />
              Copy key
            </Button>
          </div>
        </div>
      </section>

      {setup.seedPhrase ? (
        <RecoveryPhrase phrase={setup.seedPhrase} />
      ) : (
        <p className="flex gap-2 rounded-lg border border-border bg-surface-2 p-3 text-sm text-fg">
          <KeyRound className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden />
          <span>
            You already have a recovery phrase, so none is shown here. You can view it under Secret
            Combination after re-entering your password.
          </span>
        </p>
      )}

      <BackupCodes codes={setup.backupCodes} />

      <Button className="w-full sm:w-auto sm:self-end" onClick={onContinue}>
        Continue
      </Button>
    </div>
  );
}

function RecoveryPhrase({ phrase }: { phrase: string }) {
  const headingId = useId();
  const words = phrase.split(' ');
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border-2 border-danger bg-danger/5 p-4"
    >
      <h3 id={headingId} className="flex items-center gap-2 font-semibold text-danger">
        <AlertTriangle className="h-5 w-5 shrink-0" aria-hidden />
        Critical: write down your recovery phrase
      </h3>
      <p className="text-sm text-fg">
        These 12 words can reset your password and your two-factor authentication. Write them down
        in order and keep them offline, somewhere only you can reach. Anyone who has them can take
        over your account, and Coffer will never ask you for them.
      </p>
      <ol className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {words.map((word, i) => (
          <li
            // The phrase may repeat a word; the position is what identifies it.
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list that never reorders
            key={i}
            className="flex items-baseline gap-2 rounded-md border border-border bg-surface px-2 py-1.5"
          >
            <span className="w-5 text-right text-xs text-muted">{i + 1}.</span>
            <span className="font-mono text-sm text-fg">{word}</span>
          </li>
        ))}
      </ol>
      <p className="text-xs text-muted">
        You can view it again later under Secret Combination, after re-entering your password.
      </p>
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        onClick={() => void copyText(phrase, 'Recovery phrase')}
      >
        <Copy className="h-4 w-4" aria-hidden />
        Copy phrase
      </Button>
    </section>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  const headingId = useId();
  const asText = [
    'Coffer two-factor backup codes',
    'Each code can be used once, instead of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="font-semibold text-fg">
        Backup codes
      </h3>
      <p className="text-sm text-muted">
        If you lose your authenticator, each of these codes signs you in once. They are shown only
        now: copy or download them and keep them somewhere safe.
      </p>
      <ul className="grid grid-cols-2 gap-2 rounded-lg border border-border bg-surface-2 p-3">
        {codes.map((code) => (
          <li key={code} className="text-center font-mono text-sm tracking-wider text-fg">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copyText(codes.join('\n'), 'Backup codes')}
        >
          <Copy className="h-4 w-4" aria-hidden />
          Copy codes
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => downloadText('coffer-backup-codes.txt', asText)}
        >
          <Download className="h-4 w-4" aria-hidden />
          Download as text
        </Button>
      </div>
    </section>
  );
}

function ConfirmStep({
  onBack,
  onDone,
}: {
  onBack: () => void;
  onDone: (session: TSession | null) => void;
}) {
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const focusInput = () => document.getElementById(inputId)?.focus();

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus once, when the step opens
  useEffect(() => {
    focusInput();
  }, []);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (enable.isPending) return;
    if (code.length !== TOTP_DIGITS) {
      setError(MSG.sixDigitCode);
      return;
    }
    setError(null);
    enable.mutate(
      { code },
      {
        onSuccess: ({ session }) => onDone(session),
        onError: (err) => {
          console.error('2FA enable failed', err);
          const message = enableFailureMessage(err);
          setError(message);
          setCode('');
          toast.error('Verification Failed', { description: message });
          focusInput();
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">Step 2 of 2</p>
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId}>Enter the 6-digit code from your authenticator app</Label>
        <TotpCodeInput
          id={inputId}
          value={code}
          onCodeChange={(next) => {
            setCode(next);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="max-w-48"
        />
        <FieldError id={errorId} message={error} />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="outline" onClick={onBack} disabled={enable.isPending}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          Back
        </Button>
        <Button type="submit" disabled={enable.isPending}>
          {enable.isPending ? 'Verifying...' : 'Verify and Enable'}
        </Button>
      </div>
    </form>
  );
}
