import { FROZEN_MSG, MSG, PASSWORD_MIN_LENGTH, preloadPasswordCheck } from '@coffer/shared';
import { CheckCircle2, KeyRound, XCircle } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Label } from '../../../components/ui/label';
import { Logo } from '../../../components/ui/logo';
import { PasswordInput } from '../../../components/ui/password-input';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { NEW_PASSWORD_HINT, newPasswordProblem } from '../../../lib/new-password';
import { useSetPasswordWithLink } from '../api/set-password';

/**
 * /set-password?token=…: the link mailed when two admins lifted a freeze. The old password
 * no longer works (whoever caused the freeze may know it); this one signs in from now on.
 */
export default function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const set = useSetPasswordWithLink();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const passwordId = useId();
  const confirmId = useId();
  const hintId = useId();
  const errorId = useId();
  // A used or expired link cannot be mended by typing: the page says so instead of the form.
  const linkDead =
    token === '' || (set.error instanceof ApiError && set.error.code === 'NOT_FOUND');

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (checking || set.isPending) return;
    setChecking(true);
    const weak =
      password !== confirm ? MSG.passwordsDoNotMatch : await newPasswordProblem(password);
    setChecking(false);
    setProblem(weak);
    if (weak) return;
    set.mutate(
      { token, newPassword: password },
      {
        onSuccess: () => {
          setPassword('');
          setConfirm('');
        },
        onError: (err) =>
          setProblem(errorMessage(err, 'The password could not be set. Please try again.')),
      },
    );
  }

  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-bg px-4 py-8">
      <div className="flex w-full max-w-md flex-col gap-6">
        <Link to="/" aria-label="Coffer home" className="self-center">
          <Logo />
        </Link>
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
                  Coffer support lifted the freeze on your account. Your old password no longer
                  works: choose a new one. Every device is signed out when it is set.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-5">
                  <div className="flex flex-col gap-2">
                    <Label htmlFor={passwordId}>New password</Label>
                    <PasswordInput
                      id={passwordId}
                      name="newPassword"
                      autoComplete="new-password"
                      minLength={PASSWORD_MIN_LENGTH}
                      onFocus={preloadPasswordCheck}
                      value={password}
                      onChange={(e) => setPassword(e.target.value)}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={[hintId, problem ? errorId : null]
                        .filter(Boolean)
                        .join(' ')}
                    />
                  </div>
                  <div className="flex flex-col gap-2">
                    <Label htmlFor={confirmId}>Confirm new password</Label>
                    <PasswordInput
                      id={confirmId}
                      name="confirmPassword"
                      autoComplete="new-password"
                      minLength={PASSWORD_MIN_LENGTH}
                      value={confirm}
                      onChange={(e) => setConfirm(e.target.value)}
                      aria-invalid={problem ? true : undefined}
                      aria-describedby={[hintId, problem ? errorId : null]
                        .filter(Boolean)
                        .join(' ')}
                    />
                    <p id={hintId} className="text-xs text-muted">
                      {NEW_PASSWORD_HINT}
                    </p>
                  </div>
                  <FieldError id={errorId} message={problem} />
                  <Button type="submit" className="w-full" disabled={checking || set.isPending}>
                    {set.isPending ? 'Setting password...' : 'Set password'}
                  </Button>
                </form>
              </CardContent>
            </>
          )}
        </Card>
      </div>
    </main>
  );
}
