import { FROZEN_MSG, MSG } from '@coffer/shared';
import { LinkPage } from '@web/components/layout/link-page';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { FORM_ERROR, Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { NewPasswordFields } from '@web/components/ui/new-password-fields';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { newPasswordProblem } from '@web/lib/new-password';
import { CheckCircle2, KeyRound, XCircle } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { useSetPasswordWithLink } from '../api/set-password';

type TFields = { newPassword: string; confirmPassword: string };

/**
 * /set-password?token=…: the link mailed when two admins lifted a freeze. The old password
 * no longer works (whoever caused the freeze may know it); this one signs in from now on.
 */
export default function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const set = useSetPasswordWithLink();
  // One message for the form: the confirmation first, then the new password's strength.
  const form = useZodForm<TFields>(
    null,
    { newPassword: '', confirmPassword: '' },
    {
      check: async ({ newPassword, confirmPassword }) => {
        const weak =
          newPassword !== confirmPassword
            ? MSG.passwordsDoNotMatch
            : await newPasswordProblem(newPassword);
        return weak ? { [FORM_ERROR]: weak } : {};
      },
    },
  );
  // A used or expired link cannot be mended by typing: the page says so instead of the form.
  const linkDead =
    token === '' || (set.error instanceof ApiError && set.error.code === 'NOT_FOUND');

  function submit({ newPassword }: TFields) {
    if (set.isPending) return;
    set.mutate(
      { token, newPassword },
      {
        onSuccess: () => form.reset(),
        onError: (err) =>
          showServerError(form, err, (e) =>
            errorMessage(e, 'The password could not be set. Please try again.'),
          ),
      },
    );
  }

  return (
    <LinkPage>
      <Card>
        {set.isSuccess ? (
          <CardHeader className="items-center text-center">
            <CheckCircle2 className="mb-2 h-12 w-12 text-success" aria-hidden />
            <h1 className="text-xl font-semibold text-fg">Your new password is set</h1>
            <CardDescription role="status">
              Sign in with it now. Withdrawals and changes to your security settings stay on hold
              for a while after the freeze, for your safety.
            </CardDescription>
            <Button asChild className="mt-4">
              <Link to="/auth" replace>
                Sign in
              </Link>
            </Button>
          </CardHeader>
        ) : linkDead ? (
          <CardHeader className="items-center text-center">
            <XCircle className="mb-2 h-12 w-12 text-danger" aria-hidden />
            <h1 className="text-xl font-semibold text-fg">Link not valid</h1>
            <CardDescription role="alert">{FROZEN_MSG.setPasswordLinkInvalid}</CardDescription>
          </CardHeader>
        ) : (
          <>
            <CardHeader>
              <KeyRound className="mb-2 h-10 w-10 text-primary" aria-hidden />
              <h1 className="text-xl font-semibold text-fg">Set a new password</h1>
              <CardDescription>
                Coffer support lifted the freeze on your account. Your old password no longer works:
                choose a new one. Every device is signed out when it is set.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Form form={form} onSubmit={submit} summary className="flex flex-col gap-5">
                <NewPasswordFields />
                <FormError />
                <Button
                  type="submit"
                  className="w-full"
                  disabled={form.formState.isSubmitting || set.isPending}
                >
                  {set.isPending ? 'Setting password...' : 'Set password'}
                </Button>
              </Form>
            </CardContent>
          </>
        )}
      </Card>
    </LinkPage>
  );
}
