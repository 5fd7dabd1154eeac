import {
  countWords,
  MSG,
  normalizePhrase,
  PASSWORD_MIN_LENGTH,
  preloadPasswordCheck,
  RECOVERY_PHRASE_WORDS,
} from '@coffer/shared';
import { ArrowLeft, CheckCircle2, ShieldAlert } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { FieldError } from '../../../components/ui/field-error';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Logo } from '../../../components/ui/logo';
import { PasswordInput } from '../../../components/ui/password-input';
import { ApiError } from '../../../lib/api-client';
import { NEW_PASSWORD_HINT, newPasswordProblem } from '../../../lib/new-password';
import { useResetPassword } from '../api/reset-password';

const REDIRECT_MS = 3000;

type Problem = { field: 'phrase' | 'password' | 'form'; message: string };

/**
 * The rules of (8 characters: product.md S9), in their order, then whether
 * the password is guessable; null when the form may be sent. The account's e-mail is not
 * known here, so the server checks the password against it and its message is shown.
 */
async function validate(
  phrase: string,
  password: string,
  confirm: string,
): Promise<Problem | null> {
  if (countWords(phrase) !== RECOVERY_PHRASE_WORDS) {
    return { field: 'phrase', message: MSG.phraseTwelveWords };
  }
  if (password !== confirm) return { field: 'password', message: MSG.passwordsDoNotMatch };
  const weak = await newPasswordProblem(password);
  return weak ? { field: 'password', message: weak } : null;
}

/**
 * Any refusal reads as a wrong phrase, so the form tells nobody whether a phrase belongs
 * to an account; only a wait or a rule the server named is passed on as it was written.
 */
function failureMessage(err: unknown): string {
  if (
    err instanceof ApiError &&
    (err.code === 'RATE_LIMITED' ||
      err.code === 'VALIDATION_FAILED' ||
      err.code === 'NETWORK' ||
      // Only the right phrase reaches the freeze: the owner must learn to contact support.
      err.code === 'ACCOUNT_FROZEN')
  ) {
    return err.message;
  }
  return MSG.invalidRecoveryPhrase;
}

/** /reset-password: a forgotten password is replaced with the help of the recovery phrase. */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [phrase, setPhrase] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [checking, setChecking] = useState(false);

  const phraseId = useId();
  const phraseHintId = useId();
  const passwordId = useId();
  const confirmId = useId();
  const errorId = useId();
  const noticeId = useId();

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = setTimeout(() => void navigate('/auth', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (checking || reset.isPending || reset.isSuccess) return;
    setChecking(true);
    const found = await validate(phrase, password, confirm);
    setChecking(false);
    setProblem(found);
    if (found) return;
    reset.mutate(
      { recoveryPhrase: normalizePhrase(phrase), newPassword: password },
      {
        onSuccess: () => {
          setPhrase('');
          setPassword('');
          setConfirm('');
          toast.success(MSG.passwordResetDone);
        },
        onError: (err) => {
          console.error('Password reset failed', err);
          setProblem({ field: 'form', message: failureMessage(err) });
        },
      },
    );
  }

  const words = countWords(phrase);
  const invalid = (field: Problem['field']) =>
    problem && (problem.field === field || problem.field === 'form') ? true : undefined;
  const describe = (field: Problem['field'], ...ids: string[]) =>
    [...ids, invalid(field) ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-bg px-4 py-8">
      <div className="flex w-full max-w-lg flex-col gap-6">
        <div className="flex items-center justify-between gap-4">
          <Link to="/" aria-label="Coffer home">
            <Logo />
          </Link>
          <Link
            to="/auth"
            className="inline-flex items-center gap-1 text-sm text-muted hover:text-fg"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden />
            Back to Sign In
          </Link>
        </div>

        <Card>
          <CardHeader>
            <h1 className="text-2xl font-bold text-fg">Reset Password</h1>
            <CardDescription>
              Enter the 12-word recovery phrase of your account and choose a new password.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {reset.isSuccess ? (
              <div className="flex flex-col items-center gap-4 py-4 text-center">
                <CheckCircle2 className="h-12 w-12 text-success" aria-hidden />
                <p role="status" className="text-fg">
                  {MSG.passwordResetDone}
                </p>
                <p className="text-sm text-muted">Taking you to the sign-in page...</p>
                <Button asChild>
                  <Link to="/auth" replace>
                    Sign in now
                  </Link>
                </Button>
              </div>
            ) : (
              <form noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-5">
                <div className="flex flex-col gap-2">
                  <Label htmlFor={phraseId}>Recovery phrase</Label>
                  <Textarea
                    id={phraseId}
                    name="recoveryPhrase"
                    rows={3}
                    autoComplete="off"
                    autoCapitalize="none"
                    autoCorrect="off"
                    spellCheck={false}
                    placeholder="word1 word2 word3 ... word12"
                    value={phrase}
                    onChange={(e) => setPhrase(e.target.value)}
                    aria-invalid={invalid('phrase')}
                    aria-describedby={describe('phrase', phraseHintId)}
                    className="font-mono"
                  />
                  <p id={phraseHintId} className="flex justify-between gap-2 text-xs text-muted">
                    <span>Your 12 words, in order, separated by spaces.</span>
                    <span aria-live="polite">
                      {words} / {RECOVERY_PHRASE_WORDS} words
                    </span>
                  </p>
                </div>

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
                    aria-invalid={invalid('password')}
                    aria-describedby={describe('password')}
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
                    aria-invalid={invalid('password')}
                    aria-describedby={describe('password')}
                  />
                  <p className="text-xs text-muted">{NEW_PASSWORD_HINT}</p>
                </div>

                <FieldError id={errorId} message={problem?.message} />

                <div
                  id={noticeId}
                  className="flex gap-3 rounded-lg border border-warning/50 bg-warning/10 p-3 text-sm text-fg"
                >
                  <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0 text-warning" aria-hidden />
                  <div className="flex flex-col gap-1">
                    <p className="font-medium">Security notice</p>
                    <p>
                      Your recovery phrase is checked on our server over an encrypted connection and
                      is never kept in this browser. Resetting your password signs your account out
                      on every device. Coffer will never ask you for your recovery phrase: enter it
                      only on this page, never share it.
                    </p>
                  </div>
                </div>

                <Button
                  type="submit"
                  className="w-full"
                  disabled={checking || reset.isPending}
                  aria-describedby={noticeId}
                >
                  {reset.isPending ? 'Resetting Password...' : 'Reset Password'}
                </Button>
              </form>
            )}
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
