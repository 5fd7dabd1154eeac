import { ADMIN_RESET_PHRASE_MISSING, type TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { CustomerText } from '@web/components/ui/customer-text';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, formErrorOf, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { useState } from 'react';
import { toast } from 'sonner';
import { useResetTwoFactor } from '../api/two-factor-actions';

export const RESET_FAILED = 'Failed to reset 2FA. Please try again.';

type Props = {
  user: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
};

/**
 * Reset 2FA, product.md S7: the customer's phrase is checked by the server
 * against its keyed hash; the customer is signed out everywhere and told by e-mail.
 */
export function ResetTwoFactorDialog({ user, onOpenChange }: Props) {
  const form = useZodForm<{ recoveryPhrase: string }>(
    null,
    { recoveryPhrase: '' },
    {
      check: ({ recoveryPhrase }) =>
        recoveryPhrase.trim() === '' ? { form: ADMIN_RESET_PHRASE_MISSING } : {},
    },
  );
  const phrase = form.watch('recoveryPhrase');
  const error = formErrorOf(form) ?? null;
  // The typed phrase waits for the admin's own fresh second factor (step-up).
  const [asking, setAsking] = useState(false);
  const reset = useResetTwoFactor();

  function close(open: boolean) {
    if (!open) {
      form.reset();
      setAsking(false);
      reset.reset();
    }
    onOpenChange(open);
  }

  async function confirm(stepUp: TStepUp) {
    if (!user) return;
    await reset.mutateAsync({ userId: user.id, recoveryPhrase: phrase.trim(), stepUp });
    toast.success('2FA Reset Successful', {
      description: (
        <>
          <CustomerText text={user.name} /> was signed out everywhere and notified by e-mail.
        </>
      ),
    });
    close(false);
  }

  function failed(err: unknown) {
    setAsking(false);
    toast.error('Reset Failed', { description: RESET_FAILED });
    showServerError(form, err, (e) => errorMessage(e, RESET_FAILED));
  }

  function submit() {
    if (!user) return;
    setAsking(true);
  }

  return (
    <>
      <StepUpDialog
        open={user !== null && asking}
        title="Confirm with your own second factor"
        description={
          user ? (
            <>
              Reset two-factor authentication for <CustomerText text={user.name} />.
            </>
          ) : (
            ''
          )
        }
        confirmLabel="Reset 2FA"
        pendingLabel="Resetting..."
        danger
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog open={user !== null && !asking} onOpenChange={close}>
        <DialogContent
          title="Reset 2FA"
          description={
            user ? (
              <>
                Enter <CustomerText text={user.name} />
                's 12-word recovery phrase. Their authenticator is removed, every device is signed
                out and they are told by e-mail.
              </>
            ) : undefined
          }
        >
          <Form form={form} onSubmit={submit} className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor="reset-2fa-phrase">Recovery phrase</Label>
              <Textarea
                id="reset-2fa-phrase"
                rows={3}
                autoComplete="off"
                spellCheck={false}
                value={phrase}
                onChange={(e) => form.setValue('recoveryPhrase', e.target.value)}
                aria-invalid={error !== null}
                aria-describedby={error ? 'reset-2fa-error' : undefined}
                placeholder="word1 word2 word3 …"
              />
            </div>
            {error ? (
              <Alert variant="danger" id="reset-2fa-error" role="alert">
                {error}
              </Alert>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant="danger"
                disabled={phrase.trim() === '' || reset.isPending}
              >
                {reset.isPending ? 'Resetting...' : 'Reset 2FA'}
              </Button>
            </div>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
