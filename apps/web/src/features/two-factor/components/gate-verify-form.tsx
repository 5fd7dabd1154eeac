import {
  BACKUP_CODE_LENGTH,
  cleanBackupCodeInput,
  MSG,
  TOTP_DIGITS,
  ZBackupCode,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { FieldError } from '@web/components/ui/field-error';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { ShieldCheck } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { useVerifyTwoFactor } from '../api/verify-two-factor';
import { TotpCodeInput } from './totp-code-input';
import { useRecheckSessionOn } from './use-recheck-session';

/** The code (or a backup code) that passes this session's second step. */

export function VerifyForm({
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
          <CodeField
            mode={mode}
            ids={{ inputId, hintId, errorId }}
            code={code}
            backupCode={backupCode}
            error={error}
            onCode={(next) => {
              setCode(next);
              if (error) setError(null);
            }}
            onBackupCode={(next) => {
              setBackupCode(next);
              if (error) setError(null);
            }}
          />

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

/** The field of the chosen mode (app code or backup code), its hint and its error. */
function CodeField({
  mode,
  ids: { inputId, hintId, errorId },
  code,
  backupCode,
  error,
  onCode,
  onBackupCode,
}: {
  mode: 'code' | 'backup';
  ids: { inputId: string; hintId: string; errorId: string };
  code: string;
  backupCode: string;
  error: string | null;
  onCode: (next: string) => void;
  onBackupCode: (next: string) => void;
}) {
  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-2">
      {mode === 'code' ? (
        <>
          <Label htmlFor={inputId}>Authentication code</Label>
          <TotpCodeInput
            key="code"
            id={inputId}
            value={code}
            onCodeChange={onCode}
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
            onChange={(e) => onBackupCode(cleanBackupCodeInput(e.target.value))}
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
  );
}
