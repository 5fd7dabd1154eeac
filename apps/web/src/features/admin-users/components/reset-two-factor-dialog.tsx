import { ADMIN_RESET_PHRASE_MISSING, type TStepUp } from '@coffer/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
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
  const [phrase, setPhrase] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The typed phrase waits for the admin's own fresh second factor (step-up).
  const [asking, setAsking] = useState(false);
  const reset = useResetTwoFactor();

  function close(open: boolean) {
    if (!open) {
      setPhrase('');
      setError(null);
      setAsking(false);
      reset.reset();
    }
    onOpenChange(open);
  }

  async function confirm(stepUp: TStepUp) {
    if (!user) return;
    await reset.mutateAsync({ userId: user.id, recoveryPhrase: phrase.trim(), stepUp });
    toast.success('2FA Reset Successful', {
      description: `${user.name} was signed out everywhere and notified by e-mail.`,
    });
    close(false);
  }

  function failed(err: unknown) {
    setAsking(false);
    toast.error('Reset Failed', { description: RESET_FAILED });
    setError(errorMessage(err, RESET_FAILED));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!user) return;
    const trimmed = phrase.trim();
    if (trimmed === '') {
      setError(ADMIN_RESET_PHRASE_MISSING);
      return;
    }
    setError(null);
    setAsking(true);
  }

  return (
    <>
      <StepUpDialog
        open={user !== null && asking}
        title="Confirm with your own second factor"
        description={user ? `Reset two-factor authentication for ${user.name}.` : ''}
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
            user
              ? `Enter ${user.name}'s 12-word recovery phrase. Their authenticator is removed, every device is signed out and they are told by e-mail.`
              : undefined
          }
        >
          <form onSubmit={submit} className="space-y-4" noValidate>
            <div className="space-y-1.5">
              <Label htmlFor="reset-2fa-phrase">Recovery phrase</Label>
              <Textarea
                id="reset-2fa-phrase"
                rows={3}
                autoComplete="off"
                spellCheck={false}
                value={phrase}
                onChange={(e) => setPhrase(e.target.value)}
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
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
