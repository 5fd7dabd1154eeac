import {
  BACKUP_CODE_LENGTH,
  cleanBackupCodeInput,
  MSG,
  normalizePhrase,
  TOTP_DIGITS,
  ZBackupCode,
} from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, KeyRound, ShieldCheck } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input, Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Logo } from '../../../components/ui/logo';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { sessionQueryOptions } from '../../../lib/session';
import { useSignOut } from '../../../lib/sign-out';
import { useResetTwoFactorWithPhrase } from '../api/reset-two-factor-with-phrase';
import { useVerifyTwoFactor } from '../api/verify-two-factor';
import { TotpCodeInput } from './totp-code-input';

type Screen = 'verify' | 'reset';

/** When the session ended meanwhile (signed out elsewhere), let the gate send them to /auth. */
function useRecheckSessionOn() {
  const queryClient = useQueryClient();
  return (err: unknown) => {
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') {
      void queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey });
    }
  };
}

/**
 * The second step of signing in: 2FA is on and this session has not passed it yet. On
 * success the session in the cache says so and the gate shows the page that was asked for.
 * `passkey` is the app's "Use a passkey" button (another feature's, so the app passes it in).
 */
export function TwoFactorGateVerify({ passkey }: { passkey?: ReactNode } = {}) {
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

function VerifyForm({
  passkey,
  onReset,
  onCancel,
  cancelling,
}: {
  passkey?: ReactNode;
  onReset: () => void;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const verify = useVerifyTwoFactor();
  const recheckSession = useRecheckSessionOn();
  const [mode, setMode] = useState<'code' | 'backup'>('code');
  const [code, setCode] = useState('');
  const [backupCode, setBackupCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();

  // The field changes with the mode; put the cursor in whichever is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus when the mode changes
  useEffect(() => {
    document.getElementById(inputId)?.focus();
  }, [mode]);

  function switchMode() {
    setMode((m) => (m === 'code' ? 'backup' : 'code'));
    setCode('');
    setBackupCode('');
    setError(null);
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (verify.isPending) return;
    const value = mode === 'code' ? code : backupCode;
    if (value === '') return;

    let body: { code: string } | { backupCode: string };
    if (mode === 'code') {
      if (code.length !== TOTP_DIGITS) {
        setError(MSG.sixDigitCode);
        return;
      }
      body = { code };
    } else {
      const parsed = ZBackupCode.safeParse(backupCode);
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? 'Please enter an 8-character backup code');
        return;
      }
      body = { backupCode: parsed.data };
    }
    setError(null);

    verify.mutate(body, {
      onSuccess: () => {
        toast.success('2FA Verified', { description: 'You have been successfully authenticated.' });
        toast.success('Welcome back!', {
          description: 'You have successfully logged in with two-factor authentication.',
        });
      },
      onError: (err) => {
        console.error('2FA verification failed', err);
        recheckSession(err);
        const message = errorMessage(err, 'Verification failed');
        setError(message);
        setCode('');
        setBackupCode('');
        toast.error('Verification Failed', { description: message });
        document.getElementById(inputId)?.focus();
      },
    });
  }

  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <Card>
      <CardHeader>
        <span
          className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-surface-2 text-primary"
          aria-hidden
        >
          <ShieldCheck className="h-6 w-6" />
        </span>
        <h1 className="text-xl font-semibold text-fg">Two-Factor Authentication</h1>
        <CardDescription>
          {mode === 'code'
            ? 'Enter the 6-digit code from your authenticator app to finish signing in.'
            : 'Enter one of the backup codes you saved when you set up two-factor authentication.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            {mode === 'code' ? (
              <>
                <Label htmlFor={inputId}>Authentication code</Label>
                <TotpCodeInput
                  key="code"
                  id={inputId}
                  value={code}
                  onCodeChange={(next) => {
                    setCode(next);
                    if (error) setError(null);
                  }}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy}
                />
                <p id={hintId} className="text-xs text-muted">
                  6 digits, shown in your authenticator app.
                </p>
              </>
            ) : (
              <>
                <Label htmlFor={inputId}>Backup code</Label>
                <Input
                  key="backup"
                  id={inputId}
                  name="backupCode"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={BACKUP_CODE_LENGTH}
                  placeholder="ABCD2345"
                  value={backupCode}
                  onChange={(e) => {
                    setBackupCode(cleanBackupCodeInput(e.target.value));
                    if (error) setError(null);
                  }}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy}
                  className="text-center font-mono text-lg tracking-[0.3em]"
                />
                <p id={hintId} className="text-xs text-muted">
                  8 characters. Each backup code works once.
                </p>
              </>
            )}
            <FieldError id={errorId} message={error} />
          </div>

          <Button type="submit" className="w-full" disabled={verify.isPending}>
            {verify.isPending ? 'Verifying...' : 'Verify'}
          </Button>
          {passkey}

          <Button variant="link" className="self-center" onClick={switchMode}>
            {mode === 'code' ? 'Use a backup code instead' : 'Use your authenticator app instead'}
          </Button>

          <div className="flex flex-col gap-3 border-t border-border pt-4">
            <Button
              variant="link"
              className="h-auto self-center whitespace-normal text-center"
              onClick={onReset}
            >
              Lost your authenticator? Reset 2FA with your recovery phrase
            </Button>
            <Button
              variant="outline"
              className="w-full"
              onClick={onCancel}
              disabled={cancelling || verify.isPending}
            >
              {cancelling ? 'Signing out...' : 'Cancel'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function ResetForm({
  onBack,
  onCancel,
  cancelling,
}: {
  onBack: () => void;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const reset = useResetTwoFactorWithPhrase();
  const recheckSession = useRecheckSessionOn();
  const [phrase, setPhrase] = useState('');
  const [error, setError] = useState<string | null>(null);
  const phraseId = useId();
  const hintId = useId();
  const errorId = useId();

  useEffect(() => {
    document.getElementById(phraseId)?.focus();
  }, [phraseId]);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (reset.isPending) return;
    if (phrase.trim() === '') {
      setError(MSG.enterRecoveryPhrase);
      return;
    }
    setError(null);
    reset.mutate(normalizePhrase(phrase), {
      onSuccess: () => {
        setPhrase('');
        toast.success('2FA Reset Successful', {
          description: 'Set up two-factor authentication again to continue.',
        });
      },
      onError: (err) => {
        console.error('2FA reset failed', err);
        recheckSession(err);
        const message =
          err instanceof ApiError && (err.code === 'RATE_LIMITED' || err.code === 'NETWORK')
            ? err.message
            : 'Failed to reset 2FA. Please try again.';
        setError(message);
        toast.error('Reset Failed', { description: message });
      },
    });
  }

  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <Card>
      <CardHeader>
        <span
          className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-surface-2 text-primary"
          aria-hidden
        >
          <KeyRound className="h-6 w-6" />
        </span>
        <h1 className="text-xl font-semibold text-fg">Reset two-factor authentication</h1>
        <CardDescription>
          Lost your authenticator? Enter your secret recovery phrase to turn two-factor
          authentication off. You will then set it up again with a new authenticator, and every
          other device signed in to your account is signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor={phraseId}>Secret recovery phrase</Label>
            <Textarea
              id={phraseId}
              name="recoveryPhrase"
              rows={3}
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              placeholder="word1 word2 word3 ..."
              value={phrase}
              onChange={(e) => {
                setPhrase(e.target.value);
                if (error) setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              className="font-mono"
            />
            <p id={hintId} className="text-xs text-muted">
              Your 12-word recovery phrase, with the words separated by spaces.
            </p>
            <FieldError id={errorId} message={error} />
          </div>

          <Button type="submit" className="w-full" disabled={reset.isPending}>
            {reset.isPending ? 'Resetting...' : 'Reset 2FA'}
          </Button>

          <div className="flex flex-col gap-2 border-t border-border pt-4 sm:flex-row sm:justify-between">
            <Button variant="ghost" onClick={onBack} disabled={reset.isPending}>
              <ArrowLeft className="h-4 w-4" aria-hidden />
              Back to verification
            </Button>
            <Button variant="outline" onClick={onCancel} disabled={cancelling || reset.isPending}>
              {cancelling ? 'Signing out...' : 'Cancel'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
