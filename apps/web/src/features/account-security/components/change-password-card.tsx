import { MSG, MSG_SECURITY, STEP_UP_MSG, ZChangePasswordRequest } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import {
  Form,
  FormError,
  FormField,
  showServerError,
  type TFormErrors,
  type TServerErrorTarget,
  useZodForm,
} from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { NewPasswordFields } from '@web/components/ui/new-password-fields';
import { PasswordInput } from '@web/components/ui/password-input';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { newPasswordProblem } from '@web/lib/new-password';
import { toast } from 'sonner';
import { useChangePassword } from '../api/change-password';

type TFields = {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
  code: string;
};
const EMPTY: TFields = { currentPassword: '', newPassword: '', confirmPassword: '', code: '' };

/** The field a refusal of the server belongs under. */
function fieldOf(err: unknown): TServerErrorTarget<TFields> {
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

  /** After the request's schema: the new password's strength, the confirmation, the code. */
  async function check(values: TFields, found: TFormErrors<TFields>) {
    const more: TFormErrors<TFields> = {};
    if (!found.newPassword) {
      const weak = await newPasswordProblem(values.newPassword, email);
      if (weak) more.newPassword = weak;
      else if (values.confirmPassword !== values.newPassword) {
        more.confirmPassword = MSG.passwordsDoNotMatch;
      }
    }
    if (twoFactorEnabled && values.code.trim() === '') more.code = STEP_UP_MSG.required;
    return more;
  }

  const form = useZodForm<TFields>(ZChangePasswordRequest, EMPTY, { check });

  function submit({ currentPassword, newPassword, code }: TFields) {
    if (change.isPending) return;
    change.mutate(
      {
        currentPassword,
        newPassword,
        ...(twoFactorEnabled ? { stepUp: { code: code.trim() } } : {}),
      },
      {
        onSuccess: () => {
          form.reset();
          toast.success('Password changed', { description: MSG_SECURITY.passwordChanged });
        },
        onError: (err) => {
          const message = showServerError(
            form,
            err,
            (e) => errorMessage(e, 'Failed to change the password. Please try again.'),
            fieldOf,
          );
          // A code is good once: after any refusal the next try needs a new one.
          form.setValue('code', '');
          toast.error('Error', { description: message });
        },
      },
    );
  }

  const busy = change.isPending || form.formState.isSubmitting;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>
          Change the password you sign in with. Every other device is signed out when you do.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={submit}
          className="flex flex-col gap-4"
          aria-label="Change password"
        >
          <FormField name="currentPassword" label="Current password">
            {(control) => <PasswordInput {...control} autoComplete="current-password" />}
          </FormField>
          <NewPasswordFields />
          {twoFactorEnabled ? (
            <FormField
              name="code"
              label="Authentication code"
              hint="A current 6-digit code from your authenticator app, or one of your backup codes."
            >
              {(control) => (
                <Input
                  {...control}
                  autoComplete="one-time-code"
                  spellCheck={false}
                  maxLength={12}
                  className="max-w-48 font-mono tracking-widest"
                />
              )}
            </FormField>
          ) : null}
          <FormError />
          <div className="flex justify-end">
            <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
              {change.isPending ? 'Changing password...' : 'Change password'}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
