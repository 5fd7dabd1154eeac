import { countWords, MSG, normalizePhrase, RECOVERY_PHRASE_WORDS } from '@coffer/shared';
import { LinkPage } from '@web/components/layout/link-page';
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
import { NewPasswordFields } from '@web/components/ui/new-password-fields';
import { ApiError } from '@web/lib/api-client';
import { newPasswordProblem } from '@web/lib/new-password';
import { useHydrated } from '@web/lib/use-hydrated';
import { CheckCircle2, ShieldAlert } from 'lucide-react';
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

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = setTimeout(() => void navigate('/auth', { replace: true }), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  return (
    <LinkPage back={{ to: '/auth', label: 'Back to Sign In' }} className="max-w-lg">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold text-fg">Reset Password</h1>
          <CardDescription>
            Enter the 12-word recovery phrase of your account and choose a new password.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {reset.isSuccess ? <ResetDone /> : <ResetPasswordForm reset={reset} />}
        </CardContent>
      </Card>
    </LinkPage>
  );
}

/** The new password is set: on to the sign-in page, now or in a moment. */
function ResetDone() {
  return (
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
  );
}

/** The phrase, the new password twice, one message for them, and the notice on the phrase. */
function ResetPasswordForm({ reset }: { reset: ReturnType<typeof useResetPassword> }) {
  const form = useZodForm<TFields>(null, EMPTY, { check });
  const phraseHintId = useId();
  const noticeId = useId();

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
  const hydrated = useHydrated();

  return (
    <Form form={form} onSubmit={submit} summary className="flex flex-col gap-5">
      {/* Prerendered: the fields take input once React has the page, so nothing typed is
          lost and the browser never sends the form itself (the phrase in the address). */}
      <fieldset disabled={!hydrated} className="contents">
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

        <NewPasswordFields />

        <FormError />

        <PhraseNotice id={noticeId} />

        <Button
          type="submit"
          className="w-full"
          disabled={form.formState.isSubmitting || reset.isPending}
          aria-describedby={noticeId}
        >
          {reset.isPending ? 'Resetting Password...' : 'Reset Password'}
        </Button>
      </fieldset>
    </Form>
  );
}

function PhraseNotice({ id }: { id: string }) {
  return (
    <div
      id={id}
      className="flex gap-3 rounded-lg border border-warning/50 bg-warning/10 p-3 text-sm text-fg"
    >
      <ShieldAlert className="mt-0.5 h-5 w-5 shrink-0 text-warning" aria-hidden />
      <div className="flex flex-col gap-1">
        <p className="font-medium">Security notice</p>
        <p>
          Your recovery phrase is checked on our server over an encrypted connection and is never
          kept in this browser. Resetting your password signs your account out on every device.
          Coffer will never ask you for your recovery phrase: enter it only on this page, never
          share it.
        </p>
      </div>
    </div>
  );
}
