import { MSG, normalizePhrase } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@web/components/ui/card';
import { Form, FormField, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { ApiError } from '@web/lib/api-client';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { useEffect, useId } from 'react';
import { toast } from 'sonner';
import { useResetTwoFactorWithPhrase } from '../api/reset-two-factor-with-phrase';
import { useRecheckSessionOn } from './use-recheck-session';

type TFields = { recoveryPhrase: string };

/** A wait or a lost connection is told as it is; any other refusal reads the same. */
function failureMessage(err: unknown): string {
  return err instanceof ApiError && (err.code === 'RATE_LIMITED' || err.code === 'NETWORK')
    ? err.message
    : 'Failed to reset 2FA. Please try again.';
}

/** Lost authenticator: turns 2FA off with the recovery phrase, so it can be set up again. */
export function ResetForm({
  onBack,
  onCancel,
  cancelling,
}: {
  onBack: () => void;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const reset = useResetTwoFactorWithPhrase();
  const recheckSession = useRecheckSessionOn();
  const form = useZodForm<TFields>(
    null,
    { recoveryPhrase: '' },
    {
      check: ({ recoveryPhrase }) =>
        recoveryPhrase.trim() === '' ? { recoveryPhrase: MSG.enterRecoveryPhrase } : {},
    },
  );
  const phraseId = useId();

  useEffect(() => {
    document.getElementById(phraseId)?.focus();
  }, [phraseId]);

  function submit({ recoveryPhrase }: TFields) {
    if (reset.isPending) return;
    reset.mutate(normalizePhrase(recoveryPhrase), {
      onSuccess: () => {
        form.reset();
        toast.success('2FA Reset Successful', {
          description: 'Set up two-factor authentication again to continue.',
        });
      },
      onError: (err) => {
        console.error('2FA reset failed', err);
        recheckSession(err);
        const message = showServerError(form, err, failureMessage, () => 'recoveryPhrase');
        toast.error('Reset Failed', { description: message });
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <span
          className="mb-2 flex h-12 w-12 items-center justify-center rounded-full bg-surface-2 text-primary"
          aria-hidden
        >
          <KeyRound className="h-6 w-6" />
        </span>
        <h1 className="text-xl font-semibold text-fg">Reset two-factor authentication</h1>
        <CardDescription>
          Lost your authenticator? Enter your secret recovery phrase to turn two-factor
          authentication off. You will then set it up again with a new authenticator, and every
          other device signed in to your account is signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
          <FormField
            name="recoveryPhrase"
            id={phraseId}
            label="Secret recovery phrase"
            hint="Your 12-word recovery phrase, with the words separated by spaces."
          >
            {(control) => (
              <Textarea
                {...control}
                rows={3}
                autoComplete="off"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                placeholder="word1 word2 word3 ..."
                onChange={(e) => {
                  control.onChange(e);
                  form.clearErrors('recoveryPhrase');
                }}
                className="font-mono"
              />
            )}
          </FormField>

          <Button type="submit" className="w-full" disabled={reset.isPending}>
            {reset.isPending ? 'Resetting...' : 'Reset 2FA'}
          </Button>

          <div className="flex flex-col gap-2 border-t border-border pt-4 sm:flex-row sm:justify-between">
            <Button variant="ghost" onClick={onBack} disabled={reset.isPending}>
              <ArrowLeft className="h-4 w-4" aria-hidden />
              Back to verification
            </Button>
            <Button variant="outline" onClick={onCancel} disabled={cancelling || reset.isPending}>
              {cancelling ? 'Signing out...' : 'Cancel'}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
