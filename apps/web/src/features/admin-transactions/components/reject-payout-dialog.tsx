import type { TAdminTransaction, TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { FORM_ERROR, Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useRejectPayout } from '../api/reject-payout';
import { amountOf } from './pending-payout-present';
import { CustomerName } from './present';

export function RejectDialog({
  transaction,
  onClose,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
}) {
  const id = useId();
  const form = useZodForm<{ reason: string }>(
    null,
    { reason: '' },
    {
      check: ({ reason }) =>
        reason.trim() === '' ? { [FORM_ERROR]: 'Enter the reason the customer will see.' } : {},
    },
  );
  const [asking, setAsking] = useState(false);
  const reject = useRejectPayout();

  function close() {
    form.reset();
    setAsking(false);
    onClose();
  }

  function submit() {
    if (!transaction) return;
    setAsking(true);
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction) return;
    const reason = form.getValues('reason').trim();
    await reject.mutateAsync({ id: transaction.id, reason, stepUp });
    toast.success('Request rejected');
    close();
  }

  function failed(err: unknown) {
    setAsking(false);
    const message = showServerError(form, err, (e) => errorMessage(e, 'Please try again.'));
    toast.error('Failed to reject the request', { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking}
        title="Confirm the rejection"
        description={
          transaction ? (
            <>
              Reject {amountOf(transaction)} for <CustomerName tx={transaction} />: the hold is
              released and the customer is e-mailed.
            </>
          ) : (
            ''
          )
        }
        confirmLabel="Confirm and reject"
        pendingLabel="Rejecting..."
        danger
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog
        open={transaction !== null && !asking}
        onOpenChange={(open) => (open ? null : close())}
      >
        <DialogContent
          title="Reject request"
          description="The hold is released and the customer is e-mailed with your reason."
        >
          <Form form={form} onSubmit={submit} className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-reason`}>Reason (shown to the customer)</Label>
              <Textarea
                id={`${id}-reason`}
                rows={3}
                value={form.watch('reason')}
                onChange={(e) => form.setValue('reason', e.target.value)}
              />
            </div>
            <FormError />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={reject.isPending}>
                {reject.isPending ? 'Rejecting...' : 'Reject'}
              </Button>
            </div>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
