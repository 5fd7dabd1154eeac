import {
  BACKUP_CODE_LENGTH,
  cleanBackupCodeInput,
  MSG,
  TOTP_DIGITS,
  ZBackupCode,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import {
  Form,
  FormField,
  showServerError,
  type TFormErrors,
  useZodForm,
} from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { errorMessage } from '@web/lib/api-client';
import { ShieldCheck } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { type UseFormReturn, useFormContext } from 'react-hook-form';
import { toast } from 'sonner';
import { useVerifyTwoFactor } from '../api/verify-two-factor';
import { TotpCodeField } from './totp-code-input';
import { useRecheckSessionOn } from './use-recheck-session';

type TMode = 'code' | 'backup';
type TFields = { code: string; backupCode: string };

/** What is wrong with the code of the mode, if anything; an empty one is left alone. */
function codeProblem(mode: TMode, { code, backupCode }: TFields): TFormErrors<TFields> {
  if (mode === 'code') {
    return code === '' || code.length === TOTP_DIGITS ? {} : { code: MSG.sixDigitCode };
  }
  if (backupCode === '') return {};
  const parsed = ZBackupCode.safeParse(backupCode);
  if (parsed.success) return {};
  return {
    backupCode: parsed.error.issues[0]?.message ?? 'Please enter an 8-character backup code',
  };
}

/** The request for the code of the mode; null when there is none to send. */
function requestOf(
  mode: TMode,
  { code, backupCode }: TFields,
): { code: string } | { backupCode: string } | null {
  if (mode === 'code') return code === '' ? null : { code };
  const parsed = ZBackupCode.safeParse(backupCode);
  return backupCode !== '' && parsed.success ? { backupCode: parsed.data } : null;
}

/**
 * The sign-in screen's passkey button, given a way to offer the code instead: when the
 * device holds no passkey of the account, the code field is shown with `message` under it.
 */
export type TPasskeySlot = (offerCode: (message: string) => void) => ReactNode;

/** The code (or a backup code) that passes this session's second step. */
export function VerifyForm({
  passkey,
  onReset,
  onCancel,
  cancelling,
}: {
  passkey?: TPasskeySlot;
  onReset: () => void;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const verify = useVerifyTwoFactor();
  const recheckSession = useRecheckSessionOn();
  const [mode, setMode] = useState<TMode>('code');
  // A code of the wrong shape is refused here. An empty field sends nothing and keeps what
  // was said about the last code (the server's refusal stays until a code is typed).
  const form: UseFormReturn<TFields> = useZodForm<TFields>(
    null,
    { code: '', backupCode: '' },
    {
      check: (values): TFormErrors<TFields> => {
        const name = mode === 'code' ? 'code' : 'backupCode';
        const said = form.getFieldState(name).error?.message;
        if (values[name] !== '' || !said) return codeProblem(mode, values);
        const kept: TFormErrors<TFields> = {};
        kept[name] = said;
        return kept;
      },
    },
  );
  const inputId = useId();
  const hintId = useId();

  // The field changes with the mode; put the cursor in whichever is shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus when the mode changes
  useEffect(() => {
    document.getElementById(inputId)?.focus();
  }, [mode]);

  /** The authenticator code field, told why, with the cursor in it. */
  function offerCode(message: string) {
    setMode('code');
    form.reset();
    form.setError('code', { type: 'server', message });
    // The field is there after the mode's render; the mode's effect may not run (same mode).
    requestAnimationFrame(() => document.getElementById(inputId)?.focus());
  }

  function switchMode() {
    setMode((m) => (m === 'code' ? 'backup' : 'code'));
    form.reset();
  }

  function submit(values: TFields) {
    if (verify.isPending) return;
    const body = requestOf(mode, values);
    if (!body) return;
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
        form.reset();
        // Told once, under the field; the cursor goes back to it.
        showServerError(
          form,
          err,
          (e) => errorMessage(e, 'Verification failed'),
          () => (mode === 'code' ? 'code' : 'backupCode'),
        );
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
        <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
          <CodeField mode={mode} ids={{ inputId, hintId }} />

          <Button type="submit" className="w-full" disabled={verify.isPending}>
            {verify.isPending ? 'Verifying...' : 'Verify'}
          </Button>
          {passkey?.(offerCode)}

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
        </Form>
      </CardContent>
    </Card>
  );
}

/** The field of the chosen mode (app code or backup code), its hint and its error. */
function CodeField({
  mode,
  ids: { inputId, hintId },
}: {
  mode: TMode;
  ids: { inputId: string; hintId: string };
}) {
  const { clearErrors } = useFormContext<TFields>();
  if (mode === 'code') {
    return (
      <TotpCodeField
        key="code"
        id={inputId}
        hintId={hintId}
        label="Authentication code"
        hint="6 digits, shown in your authenticator app."
      />
    );
  }
  return (
    <FormField
      key="backup"
      name="backupCode"
      id={inputId}
      hintId={hintId}
      label="Backup code"
      hint="8 characters. Each backup code works once."
      transform={cleanBackupCodeInput}
    >
      {(control) => (
        <Input
          {...control}
          onChange={(e) => {
            control.onChange(e);
            clearErrors('backupCode');
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={BACKUP_CODE_LENGTH}
          placeholder="ABCD2345"
          className="text-center font-mono text-lg tracking-[0.3em]"
        />
      )}
    </FormField>
  );
}
