import { PASSWORD_MIN_LENGTH, preloadPasswordCheck } from '@coffer/shared';
import { LinkPage } from '@web/components/layout/link-page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { FieldError } from '@web/components/ui/field-error';
import { Form, FormField } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { PasswordInput } from '@web/components/ui/password-input';
import { NEW_PASSWORD_HINT } from '@web/lib/new-password';
import { useHydrated } from '@web/lib/use-hydrated';
import { MailCheck } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { type TAuthForm, useAuthForm } from './use-auth-form';

/** /auth: sign in, or sign up with `?mode=signup`. A signed-in visitor never gets here. */
export default function AuthPage() {
  const auth = useAuthForm();
  const signingUp = auth.mode === 'signup';

  return (
    <LinkPage back={{ to: '/', label: 'Back to home' }} className="max-w-md">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold text-fg">{signingUp ? 'Create Account' : 'Sign In'}</h1>
          <CardDescription>
            {signingUp
              ? 'Open your Coffer wallet. You will confirm your e-mail, then set up two-factor authentication.'
              : 'Welcome back. Sign in to your Coffer wallet.'}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {auth.notice ? (
            <p
              role="status"
              className="flex gap-2 rounded-lg border border-success/40 bg-success/10 p-3 text-sm text-fg"
            >
              <MailCheck className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden />
              <span>{auth.notice}</span>
            </p>
          ) : null}

          <AuthForm auth={auth} />

          <p className="text-center text-sm text-muted">
            {signingUp ? 'Already have an account? ' : "Don't have an account? "}
            <Link
              to={{ search: auth.searchFor(signingUp ? 'signin' : 'signup') }}
              replace
              onClick={auth.clearMessages}
              className="font-medium text-primary hover:underline"
            >
              {signingUp ? 'Sign in' : 'Sign up'}
            </Link>
          </p>
        </CardContent>
      </Card>
    </LinkPage>
  );
}

/** E-mail and password, one message for both, and the submit of the mode. */
function AuthForm({ auth }: { auth: TAuthForm }) {
  const errorId = useId();
  const hydrated = useHydrated();
  const signingUp = auth.mode === 'signup';
  return (
    <Form
      form={auth.form}
      onSubmit={auth.submit}
      summary
      formErrorId={errorId}
      // Before the checks run: the last attempt's notices go with its message.
      onSubmitCapture={auth.clear}
      className="flex flex-col gap-4"
    >
      {/* Prerendered: the fields take input once React has the page, so nothing typed is
          lost and the browser never sends the form itself (the password in the address). */}
      <fieldset disabled={!hydrated} className="contents">
        <FormField name="email" label="Email">
          {(control) => (
            <Input
              {...control}
              type="email"
              autoComplete="email"
              placeholder="you@example.com"
              onChange={(e) => {
                control.onChange(e);
                auth.setUnverified(false);
              }}
            />
          )}
        </FormField>

        <FormField
          name="password"
          label="Password"
          className="relative flex flex-col gap-2"
          // Shown on the label's line but after the field in the page, so Tab goes from the
          // e-mail to the password before reaching the link.
          after={
            signingUp ? null : (
              <Link
                to="/reset-password"
                className="absolute top-0 right-0 text-sm text-primary hover:underline"
              >
                Forgot password?
              </Link>
            )
          }
          hint={signingUp ? NEW_PASSWORD_HINT : null}
        >
          {(control) => (
            <PasswordInput
              {...control}
              autoComplete={signingUp ? 'new-password' : 'current-password'}
              // Only a new password has a minimum: older ones keep working.
              minLength={signingUp ? PASSWORD_MIN_LENGTH : undefined}
              onFocus={signingUp ? preloadPasswordCheck : undefined}
            />
          )}
        </FormField>

        <AuthFormError auth={auth} errorId={errorId} />

        <Button type="submit" className="w-full" disabled={auth.busy}>
          {signingUp
            ? auth.signingUp
              ? 'Creating account...'
              : 'Create Account'
            : auth.signingIn
              ? 'Signing in...'
              : 'Sign In'}
        </Button>
      </fieldset>
    </Form>
  );
}

/** The form's one message: a frozen account as a notice, an unconfirmed e-mail with a new link. */
function AuthFormError({ auth, errorId }: { auth: TAuthForm; errorId: string }) {
  const { error } = auth;
  if (!error) return null;
  if (auth.frozen) {
    return (
      <Alert variant="danger" role="alert" id={errorId} title="Account frozen">
        {error}
      </Alert>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <FieldError id={errorId} message={error} />
      {auth.unverified ? (
        <Button
          variant="outline"
          size="sm"
          className="self-start"
          onClick={auth.resendLink}
          disabled={auth.resending}
        >
          {auth.resending ? 'Sending...' : 'Send a new link'}
        </Button>
      ) : null}
    </div>
  );
}
