import { WAIVE_TWO_FACTOR_REASON_MISSING } from '@coffer/shared';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { useSetTwoFactorRequired } from '../api/two-factor-actions';

const WAIVE_FAILED = 'Failed to update 2FA requirement. Please try again.';

type Props = {
  user: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
};

/**
 * admin.md §2.1 '2FA Required' switched off: it weakens the customer's account, so it is
 * confirmed with a reason, which the audit log keeps; the customer is told by e-mail.
 */
export function WaiveTwoFactorDialog({ user, onOpenChange }: Props) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const waive = useSetTwoFactorRequired();

  function close(open: boolean) {
    if (!open) {
      setReason('');
      setError(null);
      waive.reset();
    }
    onOpenChange(open);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!user) return;
    const trimmed = reason.trim();
    if (trimmed === '') {
      setError(WAIVE_TWO_FACTOR_REASON_MISSING);
      return;
    }
    setError(null);
    waive.mutate(
      { userId: user.id, required: false, reason: trimmed },
      {
        onSuccess: () => {
          toast.success('2FA Not Required', {
            description: `${user.name}: two-factor authentication is no longer required. They were told by e-mail.`,
          });
          close(false);
        },
        onError: (err) => {
          toast.error('Error', { description: WAIVE_FAILED });
          setError(errorMessage(err, WAIVE_FAILED));
        },
      },
    );
  }

  return (
    <Dialog open={user !== null} onOpenChange={close}>
      <DialogContent
        title="Stop requiring 2FA?"
        description={
          user
            ? `${user.name} will be able to sign in with a password alone. Say why: the reason goes to the audit log, and the customer is told by e-mail.`
            : undefined
        }
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <div className="space-y-1.5">
            <Label htmlFor="waive-2fa-reason">Reason</Label>
            <Textarea
              id="waive-2fa-reason"
              rows={3}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={error !== null}
              aria-describedby={error ? 'waive-2fa-error' : undefined}
            />
          </div>
          {error ? (
            <Alert variant="danger" id="waive-2fa-error" role="alert">
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
              disabled={reason.trim() === '' || waive.isPending}
            >
              {waive.isPending ? 'Saving...' : 'Stop requiring 2FA'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
