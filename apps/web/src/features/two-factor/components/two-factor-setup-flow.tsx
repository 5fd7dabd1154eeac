import {
  MSG,
  PHRASE_CHECK_MSG,
  TOTP_DIGITS,
  type TSession,
  type TTwoFactorSetupResponse,
} from '@coffer/shared';
import { AlertTriangle, ArrowLeft, Copy, Download, ExternalLink, KeyRound } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PhraseWords } from '../../../components/phrase/phrase-words';
import { Button } from '../../../components/ui/button';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { QrCode } from '../../../components/ui/qr-code';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { copiedToast, copyText } from '../../../lib/clipboard';
import { useSession } from '../../../lib/session';
import { useCancelTwoFactorSetup } from '../api/cancel-two-factor-setup';
import { useEnableTwoFactor } from '../api/enable-two-factor';
import { useSetupTwoFactor } from '../api/setup-two-factor';
import { TotpCodeInput } from './totp-code-input';

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

/** A refusal about the phrase's words (wrong or missing): shown under the words, not the code. */
function isWordsRefusal(err: unknown): err is ApiError {
  return (
    err instanceof ApiError && ['INVALID_RECOVERY_PHRASE', 'VALIDATION_FAILED'].includes(err.code)
  );
}

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

function SetupStep({
  setup,
  onContinue,
  onCancelled,
}: {
  setup: TTwoFactorSetupResponse;
  onContinue: () => void;
  onCancelled: () => void;
}) {
  const headingId = useId();
  const isAdmin = useSession().data?.user.isAdmin ?? false;
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
            {/* A phone cannot scan its own screen: there the same URI opens the app directly. */}
            <div className="mb-2 hidden rounded-lg border border-border bg-surface-2 p-3 pointer-coarse:block max-sm:block">
              <p className="mb-2 text-sm text-fg">
                Setting up on this phone? Add the account to your authenticator app in one tap:
              </p>
              <Button asChild size="sm">
                <a href={setup.otpauthUrl}>
                  <ExternalLink className="h-4 w-4" aria-hidden />
                  Open in authenticator app
                </a>
              </Button>
            </div>
            <p className="text-sm text-fg">Can't scan it? Enter this key in the app instead:</p>
            <code className="break-all rounded-md border border-border bg-surface-2 px-3 py-2 font-mono text-sm text-fg">
              {groupSecret(setup.secret)}
            </code>
            <Button
              variant="outline"
              size="sm"
              className="self-start"
              onClick={() => void copyText(setup.secret, copiedToast('Secret key copied.'))}
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
            {isAdmin
              ? 'Staff accounts have no recovery phrase. If you lose your authenticator and your backup codes, another admin restores your access.'
              : 'You already have a recovery phrase, so none is shown here. You can view it under Secret Combination after re-entering your password.'}
          </span>
        </p>
      )}

      <BackupCodes codes={setup.backupCodes} />

      <CancelSetup withPhrase={setup.seedPhrase !== null} onCancelled={onCancelled}>
        <Button className="w-full sm:w-auto" onClick={onContinue}>
          Continue
        </Button>
      </CancelSetup>
    </div>
  );
}

/**
 * The setup's footer: "Cancel setup" (asked once more, as it voids what was shown) beside
 * the step's own button.
 */
function CancelSetup({
  withPhrase,
  onCancelled,
  children,
}: {
  withPhrase: boolean;
  onCancelled: () => void;
  children: ReactNode;
}) {
  const cancel = useCancelTwoFactorSetup();
  const [asking, setAsking] = useState(false);
  const questionId = useId();

  if (!asking) {
    return (
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
        <Button variant="ghost" onClick={() => setAsking(true)}>
          Cancel setup
        </Button>
        {children}
      </div>
    );
  }
  return (
    <section
      aria-labelledby={questionId}
      className="flex flex-col gap-3 rounded-lg border border-warning/50 bg-warning/10 p-3"
    >
      <p id={questionId} className="text-sm text-fg">
        Cancel this setup?{' '}
        {withPhrase
          ? 'The key, the backup codes and the recovery phrase shown here stop working.'
          : 'The key and the backup codes shown here stop working.'}{' '}
        If you added the account to an authenticator app, remove it there.
      </p>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => setAsking(false)} disabled={cancel.isPending}>
          Keep setting up
        </Button>
        <Button
          variant="danger"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(undefined, {
              onSuccess: onCancelled,
              onError: (err) =>
                toast.error('Could not cancel', {
                  description: errorMessage(err, 'The setup could not be cancelled.'),
                }),
            })
          }
        >
          {cancel.isPending ? 'Cancelling...' : 'Yes, cancel setup'}
        </Button>
      </div>
    </section>
  );
}

function RecoveryPhrase({ phrase }: { phrase: string }) {
  const headingId = useId();
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
      <PhraseWords phrase={phrase} />
      <p className="text-xs text-muted">
        Before the setup ends you will type three of these words back. Later you can view the phrase
        under Secret Combination, after re-entering your password.
      </p>
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        onClick={() => void copyText(phrase, copiedToast('Recovery phrase copied.'))}
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
        If you lose your authenticator, each of these codes signs you in once. They are shown until
        this setup is finished, never after: copy or download them and keep them somewhere safe.
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
          onClick={() => void copyText(codes.join('\n'), copiedToast('Backup codes copied.'))}
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
  setup,
  onBack,
  onDone,
}: {
  setup: TTwoFactorSetupResponse;
  onBack: () => void;
  onDone: (session: TSession | null) => void;
}) {
  const enable = useEnableTwoFactor();
  const positions = setup.phraseCheck ?? [];
  const [words, setWords] = useState<string[]>(() => positions.map(() => ''));
  const [wordsError, setWordsError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const wordsId = useId();
  const wordsErrorId = useId();
  const focusInput = () => document.getElementById(inputId)?.focus();
  const focusWord = (i: number) => document.getElementById(`${wordsId}-${i}`)?.focus();

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus once, when the step opens
  useEffect(() => {
    if (positions.length > 0) focusWord(0);
    else focusInput();
  }, []);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (enable.isPending) return;
    const blank = positions.filter((_, i) => !words[i]?.trim());
    const missingWords = blank.length > 0 ? PHRASE_CHECK_MSG.missing(blank) : null;
    const badCode = code.length !== TOTP_DIGITS ? MSG.sixDigitCode : null;
    setWordsError(missingWords);
    setError(badCode);
    if (missingWords) {
      focusWord(positions.indexOf(blank[0] ?? 0));
      return;
    }
    if (badCode) return;
    enable.mutate(
      { code, ...(positions.length > 0 ? { phraseWords: words.map((w) => w.trim()) } : {}) },
      {
        onSuccess: ({ session }) => onDone(session),
        onError: (err) => {
          console.error('2FA enable failed', err);
          if (isWordsRefusal(err)) {
            // The code was not looked at: it stays, for the corrected words.
            setWordsError(err.message);
            toast.error('Verification Failed', { description: err.message });
            focusWord(0);
            return;
          }
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
    <form noValidate onSubmit={submit} className="flex flex-col gap-5">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">Step 2 of 2</p>
      {positions.length > 0 && (
        <fieldset
          className="flex flex-col gap-3"
          aria-describedby={wordsError ? wordsErrorId : undefined}
        >
          <legend className="mb-1 font-semibold text-fg">Check your recovery phrase</legend>
          <p className="text-sm text-muted">
            From what you wrote down, type these words of your recovery phrase. This makes sure your
            copy is right before you rely on it.
          </p>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {positions.map((position, i) => (
              <div key={position} className="flex flex-col gap-1.5">
                <Label htmlFor={`${wordsId}-${i}`}>Word {position}</Label>
                {/* translate="no": browser translation would send the words to a third party. */}
                <Input
                  id={`${wordsId}-${i}`}
                  value={words[i] ?? ''}
                  onChange={(e) => {
                    const next = [...words];
                    next[i] = e.target.value;
                    setWords(next);
                    if (wordsError) setWordsError(null);
                  }}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  translate="no"
                  maxLength={50}
                  className="font-mono"
                  aria-invalid={wordsError ? true : undefined}
                />
              </div>
            ))}
          </div>
          <FieldError id={wordsErrorId} message={wordsError} />
        </fieldset>
      )}
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
