import {
  MSG,
  MSG_SECURITY,
  PASSWORD_MIN_LENGTH,
  preloadPasswordCheck,
  STEP_UP_MSG,
  ZChangePasswordRequest,
} from '@coffer/shared';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { PasswordInput } from '../../../components/ui/password-input';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { firstErrorByField } from '../../../lib/field-errors';
import { NEW_PASSWORD_HINT, newPasswordProblem } from '../../../lib/new-password';
import { useChangePassword } from '../api/change-password';

type Field = 'currentPassword' | 'newPassword' | 'confirm' | 'code' | 'form';
type Errors = Partial<Record<Field, string>>;

/** The field a refusal of the server belongs under. */
function fieldOf(err: unknown): Field {
  if (!(err instanceof ApiError)) return 'form';
  if (err.code === 'INVALID_CODE') return 'code';
  if (err.message === STEP_UP_MSG.required) return 'code';
  if (err.message === MSG_SECURITY.currentPasswordIncorrect) return 'currentPassword';
  if (err.code === 'VALIDATION_FAILED') return 'newPassword';
  return 'form';
}

/**
 * Settings → Security: a new password needs the current one and, with 2FA on, a fresh code
 * from the authenticator or a backup code. The server then signs out every other device.
 */
export function ChangePasswordCard({
  email,
  twoFactorEnabled,
}: {
  email: string;
  twoFactorEnabled: boolean;
}) {
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [checking, setChecking] = useState(false);
  const ids = {
    currentPassword: useId(),
    newPassword: useId(),
    confirm: useId(),
    code: useId(),
    hint: useId(),
    codeHint: useId(),
  };
  const errorId = (f: Field) => `${ids.hint}-${f}-error`;
  const describedBy = (f: Field, ...more: string[]) =>
    [...more, errors[f] ? errorId(f) : null].filter(Boolean).join(' ') || undefined;

  async function problems(): Promise<Errors> {
    const body = { currentPassword, newPassword };
    const parsed = ZChangePasswordRequest.safeParse(body);
    const found: Errors = parsed.success ? {} : firstErrorByField<Field>(parsed.error.issues);
    if (!found.newPassword) {
      const weak = await newPasswordProblem(newPassword, email);
      if (weak) found.newPassword = weak;
    }
    if (!found.newPassword && confirm !== newPassword) found.confirm = MSG.passwordsDoNotMatch;
    if (twoFactorEnabled && code.trim() === '') found.code = STEP_UP_MSG.required;
    return found;
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (change.isPending || checking) return;
    setChecking(true);
    const found = await problems().finally(() => setChecking(false));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      {
        currentPassword,
        newPassword,
        ...(twoFactorEnabled ? { stepUp: { code: code.trim() } } : {}),
      },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          setConfirm('');
          setCode('');
          toast.success('Password changed', { description: MSG_SECURITY.passwordChanged });
        },
        onError: (err) => {
          const message = errorMessage(err, 'Failed to change the password. Please try again.');
          setErrors({ [fieldOf(err)]: message });
          // A code is good once: after any refusal the next try needs a new one.
          setCode('');
          toast.error('Error', { description: message });
        },
      },
    );
  }

  const busy = change.isPending || checking;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>
          Change the password you sign in with. Every other device is signed out when you do.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={submit}
          className="flex flex-col gap-4"
          aria-label="Change password"
        >
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.currentPassword}>Current password</Label>
            <PasswordInput
              id={ids.currentPassword}
              name="currentPassword"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
              aria-invalid={errors.currentPassword ? true : undefined}
              aria-describedby={describedBy('currentPassword')}
            />
            <FieldError id={errorId('currentPassword')} message={errors.currentPassword} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.newPassword}>New password</Label>
            <PasswordInput
              id={ids.newPassword}
              name="newPassword"
              autoComplete="new-password"
              minLength={PASSWORD_MIN_LENGTH}
              onFocus={preloadPasswordCheck}
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
              aria-invalid={errors.newPassword ? true : undefined}
              aria-describedby={describedBy('newPassword', ids.hint)}
            />
            <p id={ids.hint} className="text-xs text-muted">
              {NEW_PASSWORD_HINT}
            </p>
            <FieldError id={errorId('newPassword')} message={errors.newPassword} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.confirm}>Confirm new password</Label>
            <PasswordInput
              id={ids.confirm}
              name="confirmPassword"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              aria-invalid={errors.confirm ? true : undefined}
              aria-describedby={describedBy('confirm')}
            />
            <FieldError id={errorId('confirm')} message={errors.confirm} />
          </div>
          {twoFactorEnabled ? (
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.code}>Authentication code</Label>
              <Input
                id={ids.code}
                name="code"
                autoComplete="one-time-code"
                spellCheck={false}
                maxLength={12}
                className="max-w-48 font-mono tracking-widest"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                aria-invalid={errors.code ? true : undefined}
                aria-describedby={describedBy('code', ids.codeHint)}
              />
              <p id={ids.codeHint} className="text-xs text-muted">
                A current 6-digit code from your authenticator app, or one of your backup codes.
              </p>
              <FieldError id={errorId('code')} message={errors.code} />
            </div>
          ) : null}
          <FieldError id={errorId('form')} message={errors.form} />
          <div className="flex justify-end">
            <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
              {change.isPending ? 'Changing password...' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
