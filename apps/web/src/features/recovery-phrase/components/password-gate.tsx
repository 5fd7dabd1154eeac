import { MSG } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Form, FormField, type TFormErrors, useZodForm } from '@web/components/ui/form';
import { PasswordInput } from '@web/components/ui/password-input';
import { ApiError } from '@web/lib/api-client';
import { LockKeyhole } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useUnlockPhrase } from '../api/unlock-phrase';

type TFields = { password: string };

/**
 * Asks for the account password every time the Secret Combination is opened. Only a
 * confirmed correct password opens it; every failure keeps it closed (product.md S3).
 */
export function PasswordGate({
  onVerified,
  onSessionEnded,
}: {
  onVerified: () => void;
  /** Called when the server says the session itself is gone or needs its second factor. */
  onSessionEnded: () => void;
}) {
  const form = useZodForm<TFields>(
    null,
    { password: '' },
    { check: ({ password }) => (password.length === 0 ? { password: MSG.passwordRequired } : {}) },
  );
  const unlock = useUnlockPhrase();

  /** An empty password is told at the field, and in a toast as every refusal here is. */
  function refused(errors: TFormErrors<TFields>) {
    if (errors.password) toast.error('Password required', { description: errors.password });
  }

  /** A refusal of the password itself stays under the field until the next attempt. */
  function refusePassword(message: string) {
    form.setError('password', { type: 'server', message });
  }

  function onSubmit({ password }: TFields) {
    if (unlock.isPending) return;
    unlock.mutate(password, {
      onSuccess: () => {
        form.reset();
        toast.success('Password verified', {
          description: 'Access granted to Secret Combination.',
        });
        onVerified();
      },
      onError: (err) => {
        console.error('Password verification failed', err);
        if (err instanceof ApiError) {
          if (err.code === 'INVALID_CREDENTIALS' || err.code === 'VALIDATION_FAILED') {
            refusePassword(MSG.passwordIncorrect);
            toast.error('Invalid password', { description: MSG.passwordIncorrect });
            return;
          }
          if (err.code === 'RATE_LIMITED') {
            refusePassword(err.message);
            toast.error(err.message);
            return;
          }
          if (err.code === 'UNAUTHENTICATED' || err.code === 'TWO_FACTOR_REQUIRED') {
            // The session ended meanwhile; let the route gate show what comes next.
            onSessionEnded();
          }
        }
        toast.error('Verification failed', {
          description: 'Unable to verify password. Please try again.',
        });
      },
    });
  }

  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <span
          className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-surface-2 text-primary"
          aria-hidden
        >
          <LockKeyhole className="h-6 w-6" />
        </span>
        <h1 className="text-lg font-semibold text-fg">Password Verification</h1>
        <CardDescription>
          Enter your account password to open your Secret Combination.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form form={form} onSubmit={onSubmit} onInvalid={refused} className="space-y-4">
          <FormField
            name="password"
            id="secret-combination-password"
            label="Account password"
            className="space-y-2"
          >
            {(control) => (
              <PasswordInput
                {...control}
                autoComplete="current-password"
                readOnly={unlock.isPending}
              />
            )}
          </FormField>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button asChild variant="outline">
              <Link to="/dashboard">Cancel</Link>
            </Button>
            <Button type="submit" disabled={unlock.isPending}>
              {unlock.isPending ? 'Verifying...' : 'Verify'}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
