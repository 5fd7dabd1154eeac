import { MSG, ZSignUpRequest } from '@coffer/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  FORM_ERROR,
  messagesOf,
  showServerError,
  type TFormErrors,
  useZodForm,
} from '@web/components/ui/form';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { newPasswordProblem } from '@web/lib/new-password';
import { greetingFor, sessionQueryOptions } from '@web/lib/session';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useResendVerification } from '../api/resend-verification';
import { useSignIn } from '../api/sign-in';
import { useSignUp } from '../api/sign-up';

export type TAuthMode = 'signin' | 'signup';
export type TAuthFields = { email: string; password: string };

/**
 * One message for the form, the first problem found: both fields, then the sign-up
 * request's schema, then the strength of a new password (the server runs the same check
 * with the same message; this one saves a round trip). Each problem belongs to the field it
 * is about, so only that field is marked: a weak password leaves the e-mail alone.
 */
async function authProblem(
  mode: TAuthMode,
  values: TAuthFields,
): Promise<TFormErrors<TAuthFields>> {
  const missing: TFormErrors<TAuthFields> = {};
  if (values.email.trim() === '') missing.email = MSG.emailAndPasswordRequired;
  if (values.password === '') missing.password = MSG.emailAndPasswordRequired;
  if (missing.email || missing.password) return missing;
  if (mode !== 'signup') return {};
  const parsed = ZSignUpRequest.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field =
      issue?.path[0] === 'email' || issue?.path[0] === 'password' ? issue.path[0] : FORM_ERROR;
    return { [field]: issue?.message ?? 'Authentication failed' };
  }
  const weak = await newPasswordProblem(parsed.data.password, parsed.data.email);
  return weak ? { password: weak } : {};
}

/** The message the form shows: one for the whole form first, else the first field's. */
function summaryOf(messages: TFormErrors<TAuthFields>): string | null {
  return messages[FORM_ERROR] ?? messages.email ?? messages.password ?? null;
}

/** The notices beside the form's message: they go with the attempt that brought them. */
function useAuthNotices() {
  const [unverified, setUnverified] = useState(false);
  /** A frozen account's refusal: not a typo to fix, so it is shown as a notice of its own. */
  const [frozen, setFrozen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  return {
    unverified,
    frozen,
    notice,
    setUnverified,
    setFrozen,
    setNotice,
    clear: () => {
      setUnverified(false);
      setFrozen(false);
      setNotice(null);
    },
  };
}

/**
 * The sign-in and sign-up form of /auth: its checks, the two requests, the notices they
 * leave (unconfirmed e-mail, frozen account, the link sent) and Send a new link.
 */
export function useAuthForm() {
  const [params] = useSearchParams();
  const mode: TAuthMode = params.get('mode') === 'signup' ? 'signup' : 'signin';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const signUp = useSignUp();
  const resend = useResendVerification();
  const notices = useAuthNotices();

  const form = useZodForm<TAuthFields>(
    null,
    { email: '', password: '' },
    { check: (values) => authProblem(mode, values) },
  );

  /** The same page in the other mode, keeping `next`. */
  function searchFor(target: TAuthMode): string {
    const p = new URLSearchParams(params);
    if (target === 'signup') p.set('mode', 'signup');
    else p.delete('mode');
    const s = p.toString();
    return s ? `?${s}` : '';
  }

  function clearMessages() {
    form.clearErrors('root');
    notices.clear();
  }

  /** A refusal is told once, above the submit button (a frozen account as its notice). */
  function showAuthError(err: unknown) {
    console.error('Authentication failed', err);
    showServerError(form, err, (e) => errorMessage(e, 'Authentication failed'));
    notices.setUnverified(err instanceof ApiError && err.code === 'EMAIL_NOT_VERIFIED');
    notices.setFrozen(err instanceof ApiError && err.code === 'ACCOUNT_FROZEN');
  }

  function submit(values: TAuthFields) {
    if (signIn.isPending || signUp.isPending) return;
    if (mode === 'signup') submitSignUp(values);
    else submitSignIn(values);
  }

  function submitSignUp(values: TAuthFields) {
    const parsed = ZSignUpRequest.safeParse(values);
    if (!parsed.success) return;
    signUp.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Account created!', {
          description:
            'Please check your e-mail and confirm your address, then sign in to set up two-factor authentication.',
        });
        form.resetField('password');
        notices.setNotice(
          `We sent a confirmation link to ${parsed.data.email}. Open it to confirm your address, then sign in here; you will set up two-factor authentication next.`,
        );
        void navigate({ search: searchFor('signin') }, { replace: true });
      },
      onError: showAuthError,
    });
  }

  function submitSignIn({ email, password }: TAuthFields) {
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
            toast.success(`${greetingFor(session)}!`, {
              description: 'You have successfully logged in.',
            });
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

  return {
    mode,
    form,
    error: summaryOf(messagesOf<TAuthFields>(form.formState.errors)),
    busy: form.formState.isSubmitting || signIn.isPending || signUp.isPending,
    signingIn: signIn.isPending,
    signingUp: signUp.isPending,
    resending: resend.isPending,
    ...notices,
    searchFor,
    clearMessages,
    submit,
    resendLink,
  };
}

export type TAuthForm = ReturnType<typeof useAuthForm>;
