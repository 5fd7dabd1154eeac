import { MSG, PASSWORD_MIN_LENGTH, preloadPasswordCheck, ZSignUpRequest } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Logo } from '../../../components/ui/logo';
import { PasswordInput } from '../../../components/ui/password-input';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { NEW_PASSWORD_HINT, newPasswordProblem } from '../../../lib/new-password';
import { sessionQueryOptions } from '../../../lib/session';
import { useResendVerification } from '../api/resend-verification';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';

type Mode = 'signin' | 'signup';

/** /auth: sign in, or sign up with `?mode=signup`. A signed-in visitor never gets here. */
export default function AuthPage() {
  const [params] = useSearchParams();
  const mode: Mode = params.get('mode') === 'signup' ? 'signup' : 'signin';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const signUp = useSignUp();
  const resend = useResendVerification();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  /** A frozen account's refusal: not a typo to fix, so it is shown as a notice of its own. */
  const [frozen, setFrozen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const emailId = useId();
  const passwordId = useId();
  const passwordHintId = useId();
  const errorId = useId();

  const busy = checking || signIn.isPending || signUp.isPending;

  /** The same page in the other mode, keeping `next`. */
  function searchFor(target: Mode): string {
    const p = new URLSearchParams(params);
    if (target === 'signup') p.set('mode', 'signup');
    else p.delete('mode');
    const s = p.toString();
    return s ? `?${s}` : '';
  }

  function clearMessages() {
    setError(null);
    setUnverified(false);
    setFrozen(false);
    setNotice(null);
  }

  function showAuthError(err: unknown) {
    console.error('Authentication failed', err);
    const message = errorMessage(err, 'Authentication failed');
    setError(message);
    setUnverified(err instanceof ApiError && err.code === 'EMAIL_NOT_VERIFIED');
    const isFrozen = err instanceof ApiError && err.code === 'ACCOUNT_FROZEN';
    setFrozen(isFrozen);
    toast.error(isFrozen ? 'Account Frozen' : 'Authentication Error', { description: message });
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    clearMessages();
    if (email.trim() === '' || password === '') {
      setError(MSG.emailAndPasswordRequired);
      return;
    }
    if (mode === 'signup') void submitSignUp();
    else submitSignIn();
  }

  async function submitSignUp() {
    const parsed = ZSignUpRequest.safeParse({ email, password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Authentication failed');
      return;
    }
    // The server runs the same check with the same message; this one saves a round trip.
    setChecking(true);
    const weak = await newPasswordProblem(parsed.data.password, parsed.data.email);
    setChecking(false);
    if (weak) {
      setError(weak);
      return;
    }
    signUp.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Account created!', {
          description:
            'Please check your e-mail and confirm your address, then sign in to set up two-factor authentication.',
        });
        setPassword('');
        setNotice(
          `We sent a confirmation link to ${parsed.data.email}. Open it to confirm your address, then sign in here; you will set up two-factor authentication next.`,
        );
        void navigate({ search: searchFor('signin') }, { replace: true });
      },
      onError: showAuthError,
    });
  }

  function submitSignIn() {
    signIn.mutate(
      { email: email.trim().toLowerCase(), password },
      {
        onSuccess: async ({ session }) => {
          if (!session) {
            showAuthError(null);
            return;
          }
          setPassword('');
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
    resend.mutate(email.trim().toLowerCase(), {
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
  const describedBy = (base: string | null) =>
    [base, error ? errorId : null].filter(Boolean).join(' ') || undefined;

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

            <form noValidate onSubmit={submit} className="flex flex-col gap-4">
              <div className="flex flex-col gap-2">
                <Label htmlFor={emailId}>Email</Label>
                <Input
                  id={emailId}
                  name="email"
                  type="email"
                  autoComplete="email"
                  placeholder="you@example.com"
                  value={email}
                  onChange={(e) => {
                    setEmail(e.target.value);
                    setUnverified(false);
                  }}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy(null)}
                />
              </div>

              <div className="flex flex-col gap-2">
                <div className="flex items-center justify-between gap-2">
                  <Label htmlFor={passwordId}>Password</Label>
                  {signingUp ? null : (
                    <Link to="/reset-password" className="text-sm text-primary hover:underline">
                      Forgot password?
                    </Link>
                  )}
                </div>
                <PasswordInput
                  id={passwordId}
                  name="password"
                  autoComplete={signingUp ? 'new-password' : 'current-password'}
                  // Only a new password has a minimum: older ones keep working (DEVIATIONS S9).
                  minLength={signingUp ? PASSWORD_MIN_LENGTH : undefined}
                  onFocus={signingUp ? preloadPasswordCheck : undefined}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={describedBy(signingUp ? passwordHintId : null)}
                />
                {signingUp ? (
                  <p id={passwordHintId} className="text-xs text-muted">
                    {NEW_PASSWORD_HINT}
                  </p>
                ) : null}
              </div>

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
            </form>

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
