import type { TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, formErrorOf, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { type ReactNode, useState } from 'react';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What happens, naming the person (their name isolated with CustomerText). */
  description: ReactNode;
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
  const form = useZodForm<{ reason: string }>(
    null,
    { reason: '' },
    { check: ({ reason }) => (reason.trim() === '' ? { form: props.missingReason } : {}) },
  );
  const reason = form.watch('reason');
  const error = formErrorOf(form) ?? null;
  const failedText = (err: unknown) => errorMessage(err, props.failed);
  const [pending, setPending] = useState(false);
  const [asking, setAsking] = useState(false);

  function close(open: boolean) {
    if (!open) {
      form.reset();
      setAsking(false);
    }
    props.onOpenChange(open);
  }

  async function submit(values: { reason: string }) {
    const trimmed = values.reason.trim();
    if (props.stepUpTitle) {
      setAsking(true);
      return;
    }
    setPending(true);
    try {
      await props.onConfirm(trimmed);
      close(false);
    } catch (err) {
      showServerError(form, err, failedText);
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
            showServerError(form, err, failedText);
          }}
        />
      ) : null}
      <Dialog open={props.open && !asking} onOpenChange={close}>
        <DialogContent title={props.title} description={props.description}>
          <Form form={form} onSubmit={submit} className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor="staff-reason">Reason</Label>
              <Textarea
                id="staff-reason"
                rows={3}
                maxLength={500}
                value={reason}
                onChange={(e) => form.setValue('reason', e.target.value)}
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
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
