import {
  countWords,
  MSG,
  normalizePhrase,
  PASSWORD_MIN_LENGTH,
  preloadPasswordCheck,
  RECOVERY_PHRASE_WORDS,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import {
  Form,
  FormError,
  FormField,
  showServerError,
  type TFormErrors,
  useZodForm,
} from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Logo } from '@web/components/ui/logo';
import { PasswordInput } from '@web/components/ui/password-input';
import { ApiError } from '@web/lib/api-client';
import { NEW_PASSWORD_HINT, newPasswordProblem } from '@web/lib/new-password';
import { ArrowLeft, CheckCircle2, ShieldAlert } from 'lucide-react';
import { useEffect, useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useResetPassword } from '../api/reset-password';

const REDIRECT_MS = 3000;

type TFields = { recoveryPhrase: string; newPassword: string; confirmPassword: string };
const EMPTY: TFields = { recoveryPhrase: '', newPassword: '', confirmPassword: '' };

/**
 * The rules of (8 characters: product.md S9), in their order, then whether the password is
 * guessable; one message at a time, marking the fields it is about. The account's e-mail is
 * not known here, so the server checks the password against it and its message is shown.
 */
async function check({
  recoveryPhrase,
  newPassword,
  confirmPassword,
}: TFields): Promise<TFormErrors<TFields>> {
  if (countWords(recoveryPhrase) !== RECOVERY_PHRASE_WORDS) {
    return { recoveryPhrase: MSG.phraseTwelveWords };
  }
  const weak =
    newPassword !== confirmPassword
      ? MSG.passwordsDoNotMatch
      : await newPasswordProblem(newPassword);
  return weak ? { newPassword: weak, confirmPassword: weak } : {};
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
  const form = useZodForm<TFields>(null, EMPTY, { check });
  const phraseHintId = useId();
  const noticeId = useId();

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = setTimeout(() => void navigate('/auth', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  function submit({ recoveryPhrase, newPassword }: TFields) {
    if (reset.isPending || reset.isSuccess) return;
    reset.mutate(
      { recoveryPhrase: normalizePhrase(recoveryPhrase), newPassword },
      {
        onSuccess: () => {
          form.reset(EMPTY);
          toast.success(MSG.passwordResetDone);
        },
        onError: (err) => {
          console.error('Password reset failed', err);
          showServerError(form, err, failureMessage);
        },
      },
    );
  }

  const words = countWords(form.watch('recoveryPhrase'));

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
              <Form form={form} onSubmit={submit} summary className="flex flex-col gap-5">
                <FormField
                  name="recoveryPhrase"
                  label="Recovery phrase"
                  describedBy={[phraseHintId]}
                  after={
                    <p id={phraseHintId} className="flex justify-between gap-2 text-xs text-muted">
                      <span>Your 12 words, in order, separated by spaces.</span>
                      <span aria-live="polite">
                        {words} / {RECOVERY_PHRASE_WORDS} words
                      </span>
                    </p>
                  }
                >
                  {(control) => (
                    <Textarea
                      {...control}
                      rows={3}
                      autoComplete="off"
                      autoCapitalize="none"
                      autoCorrect="off"
                      spellCheck={false}
                      placeholder="word1 word2 word3 ... word12"
                      className="font-mono"
                    />
                  )}
                </FormField>

                <FormField name="newPassword" label="New password">
                  {(control) => (
                    <PasswordInput
                      {...control}
                      autoComplete="new-password"
                      minLength={PASSWORD_MIN_LENGTH}
                      onFocus={preloadPasswordCheck}
                    />
                  )}
                </FormField>

                <FormField
                  name="confirmPassword"
                  label="Confirm new password"
                  after={<p className="text-xs text-muted">{NEW_PASSWORD_HINT}</p>}
                >
                  {(control) => (
                    <PasswordInput
                      {...control}
                      autoComplete="new-password"
                      minLength={PASSWORD_MIN_LENGTH}
                    />
                  )}
                </FormField>

                <FormError />

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
                  disabled={form.formState.isSubmitting || reset.isPending}
                  aria-describedby={noticeId}
                >
                  {reset.isPending ? 'Resetting Password...' : 'Reset Password'}
                </Button>
              </Form>
            )}
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
