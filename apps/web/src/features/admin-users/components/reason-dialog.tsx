import type { TStepUp } from '@coffer/shared';
import { type FormEvent, useState } from 'react';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  pendingLabel: string;
  /** What the server says when the reason is empty; the form says it first. */
  missingReason: string;
  failed: string;
  /**
   * A factor change takes the acting admin's fresh second factor too: with this, the
   * reason is followed by the step-up dialog, titled so, and `onConfirm` gets its proof.
   */
  stepUpTitle?: string;
  /** Runs the action; a rejection keeps the dialog open with the server's message. */
  onConfirm: (reason: string, stepUp?: TStepUp) => Promise<unknown>;
};

/**
 * A staff action that weakens an account (waiving 2FA): it is
 * confirmed with a reason, which the audit log keeps.
 */
export function ReasonDialog(props: Props) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [asking, setAsking] = useState(false);

  function close(open: boolean) {
    if (!open) {
      setReason('');
      setError(null);
      setAsking(false);
    }
    props.onOpenChange(open);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const trimmed = reason.trim();
    if (trimmed === '') {
      setError(props.missingReason);
      return;
    }
    setError(null);
    if (props.stepUpTitle) {
      setAsking(true);
      return;
    }
    setPending(true);
    try {
      await props.onConfirm(trimmed);
      close(false);
    } catch (err) {
      setError(errorMessage(err, props.failed));
    } finally {
      setPending(false);
    }
  }

  async function confirmWith(stepUp: TStepUp) {
    await props.onConfirm(reason.trim(), stepUp);
    close(false);
  }

  return (
    <>
      {props.stepUpTitle ? (
        <StepUpDialog
          open={props.open && asking}
          title={props.stepUpTitle}
          description={props.description}
          confirmLabel={props.confirmLabel}
          pendingLabel={props.pendingLabel}
          danger
          onCancel={() => setAsking(false)}
          onConfirm={confirmWith}
          // Back to the reason, with the server's message (a hold, a state that changed).
          onFailure={(err) => {
            setAsking(false);
            setError(errorMessage(err, props.failed));
          }}
        />
      ) : null}
      <Dialog open={props.open && !asking} onOpenChange={close}>
        <DialogContent title={props.title} description={props.description}>
          <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
            <div className="space-y-1.5">
              <Label htmlFor="staff-reason">Reason</Label>
              <Textarea
                id="staff-reason"
                rows={3}
                maxLength={500}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                aria-invalid={error !== null}
                aria-describedby={error ? 'staff-reason-error' : undefined}
              />
            </div>
            {error ? (
              <Alert variant="danger" id="staff-reason-error" role="alert">
                {error}
              </Alert>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={reason.trim() === '' || pending}>
                {pending ? props.pendingLabel : props.confirmLabel}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
