import { MSG, PASSWORD_MIN_LENGTH, preloadPasswordCheck, ZSignUpRequest } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { FieldError } from '@web/components/ui/field-error';
import {
  FORM_ERROR,
  Form,
  FormField,
  formErrorOf,
  showServerError,
  type TFormErrors,
  useZodForm,
} from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { Logo } from '@web/components/ui/logo';
import { PasswordInput } from '@web/components/ui/password-input';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { NEW_PASSWORD_HINT, newPasswordProblem } from '@web/lib/new-password';
import { sessionQueryOptions } from '@web/lib/session';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useResendVerification } from '../api/resend-verification';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';

type Mode = 'signin' | 'signup';
type TFields = { email: string; password: string };

/** /auth: sign in, or sign up with `?mode=signup`. A signed-in visitor never gets here. */
export default function AuthPage() {
  const [params] = useSearchParams();
  const mode: Mode = params.get('mode') === 'signup' ? 'signup' : 'signin';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const signUp = useSignUp();
  const resend = useResendVerification();

  const [unverified, setUnverified] = useState(false);
  /** A frozen account's refusal: not a typo to fix, so it is shown as a notice of its own. */
  const [frozen, setFrozen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  /**
   * One message for the form, the first problem found: both fields, then the sign-up
   * request's schema, then the strength of a new password (the server runs the same check
   * with the same message; this one saves a round trip).
   */
  async function check(values: TFields): Promise<TFormErrors<TFields>> {
    if (values.email.trim() === '' || values.password === '') {
      return { [FORM_ERROR]: MSG.emailAndPasswordRequired };
    }
    if (mode !== 'signup') return {};
    const parsed = ZSignUpRequest.safeParse(values);
    if (!parsed.success) {
      return { [FORM_ERROR]: parsed.error.issues[0]?.message ?? 'Authentication failed' };
    }
    const weak = await newPasswordProblem(parsed.data.password, parsed.data.email);
    return weak ? { [FORM_ERROR]: weak } : {};
  }

  const form = useZodForm<TFields>(null, { email: '', password: '' }, { check });
  const error = formErrorOf(form) ?? null;
  const errorId = useId();

  const busy = form.formState.isSubmitting || signIn.isPending || signUp.isPending;

  /** The same page in the other mode, keeping `next`. */
  function searchFor(target: Mode): string {
    const p = new URLSearchParams(params);
    if (target === 'signup') p.set('mode', 'signup');
    else p.delete('mode');
    const s = p.toString();
    return s ? `?${s}` : '';
  }

  function clearMessages() {
    form.clearErrors('root');
    setUnverified(false);
    setFrozen(false);
    setNotice(null);
  }

  function showAuthError(err: unknown) {
    console.error('Authentication failed', err);
    const message = showServerError(form, err, (e) => errorMessage(e, 'Authentication failed'));
    setUnverified(err instanceof ApiError && err.code === 'EMAIL_NOT_VERIFIED');
    const isFrozen = err instanceof ApiError && err.code === 'ACCOUNT_FROZEN';
    setFrozen(isFrozen);
    toast.error(isFrozen ? 'Account Frozen' : 'Authentication Error', { description: message });
  }

  function submit(values: TFields) {
    if (signIn.isPending || signUp.isPending) return;
    if (mode === 'signup') submitSignUp(values);
    else submitSignIn(values);
  }

  function submitSignUp(values: TFields) {
    const parsed = ZSignUpRequest.safeParse(values);
    if (!parsed.success) return;
    signUp.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Account created!', {
          description:
            'Please check your e-mail and confirm your address, then sign in to set up two-factor authentication.',
        });
        form.resetField('password');
        setNotice(
          `We sent a confirmation link to ${parsed.data.email}. Open it to confirm your address, then sign in here; you will set up two-factor authentication next.`,
        );
        void navigate({ search: searchFor('signin') }, { replace: true });
      },
      onError: showAuthError,
    });
  }

  function submitSignIn({ email, password }: TFields) {
    signIn.mutate(
      { email: email.trim().toLowerCase(), password },
      {
        onSuccess: async ({ session }) => {
          if (!session) {
            showAuthError(null);
            return;
          }
          form.resetField('password');
          if (session.twoFactor.verified) {
            toast.success('Welcome back!', { description: 'You have successfully logged in.' });
          }
          // Whatever an earlier account left in the cache in this browser goes now. With the
          // session in the cache, the public-only route moves on to `next` or the dashboard,
          // where the gate shows the 2FA screens if they are still to be passed. The session
          // query itself is overwritten, not removed: the route watching it would keep
          // watching the removed one and never see the new session.
          queryClient.removeQueries({
            predicate: (q) => q.queryKey[0] !== 'public-info' && q.queryKey[0] !== 'session',
          });
          queryClient.setQueryData(sessionQueryOptions().queryKey, session);
        },
        onError: showAuthError,
      },
    );
  }

  function resendLink() {
    resend.mutate(form.getValues('email').trim().toLowerCase(), {
      onSuccess: () => {
        toast.success('Confirmation link sent', {
          description:
            'If this address still needs confirming, a new link is on its way. Check your inbox.',
        });
      },
      onError: (err) => {
        console.error('Resending the confirmation link failed', err);
        toast.error('Could not send the link', {
          description: errorMessage(err, 'Please try again in a few minutes.'),
        });
      },
    });
  }

  const signingUp = mode === 'signup';

  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-bg px-4 py-8">
      <div className="flex w-full max-w-md flex-col gap-6">
        <div className="flex items-center justify-between gap-4">
          <Link to="/" aria-label="Coffer home">
            <Logo />
          </Link>
          <Link to="/" className="inline-flex items-center gap-1 text-sm text-muted hover:text-fg">
            <ArrowLeft className="h-4 w-4" aria-hidden />
            Back to home
          </Link>
        </div>

        <Card>
          <CardHeader>
            <h1 className="text-2xl font-bold text-fg">
              {signingUp ? 'Create Account' : 'Sign In'}
            </h1>
            <CardDescription>
              {signingUp
                ? 'Open your Coffer wallet. You will confirm your e-mail, then set up two-factor authentication.'
                : 'Welcome back. Sign in to your Coffer wallet.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            {notice ? (
              <p
                role="status"
                className="flex gap-2 rounded-lg border border-success/40 bg-success/10 p-3 text-sm text-fg"
              >
                <MailCheck className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden />
                <span>{notice}</span>
              </p>
            ) : null}

            <Form
              form={form}
              onSubmit={submit}
              summary
              formErrorId={errorId}
              // Before the checks run: the last attempt's notices go with its message.
              onSubmitCapture={() => {
                setUnverified(false);
                setFrozen(false);
                setNotice(null);
              }}
              className="flex flex-col gap-4"
            >
              <FormField name="email" label="Email">
                {(control) => (
                  <Input
                    {...control}
                    type="email"
                    autoComplete="email"
                    placeholder="you@example.com"
                    onChange={(e) => {
                      control.onChange(e);
                      setUnverified(false);
                    }}
                  />
                )}
              </FormField>

              <FormField
                name="password"
                label="Password"
                labelAside={
                  signingUp ? null : (
                    <Link to="/reset-password" className="text-sm text-primary hover:underline">
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

              {error && frozen ? (
                <Alert variant="danger" role="alert" id={errorId} title="Account frozen">
                  {error}
                </Alert>
              ) : error ? (
                <div className="flex flex-col gap-2">
                  <FieldError id={errorId} message={error} />
                  {unverified ? (
                    <Button
                      variant="outline"
                      size="sm"
                      className="self-start"
                      onClick={resendLink}
                      disabled={resend.isPending}
                    >
                      {resend.isPending ? 'Sending...' : 'Send a new link'}
                    </Button>
                  ) : null}
                </div>
              ) : null}

              <Button type="submit" className="w-full" disabled={busy}>
                {signingUp
                  ? signUp.isPending
                    ? 'Creating account...'
                    : 'Create Account'
                  : signIn.isPending
                    ? 'Signing in...'
                    : 'Sign In'}
              </Button>
            </Form>

            <p className="text-center text-sm text-muted">
              {signingUp ? 'Already have an account? ' : "Don't have an account? "}
              <Link
                to={{ search: searchFor(signingUp ? 'signin' : 'signup') }}
                replace
                onClick={clearMessages}
                className="font-medium text-primary hover:underline"
              >
                {signingUp ? 'Sign in' : 'Sign up'}
              </Link>
            </p>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
