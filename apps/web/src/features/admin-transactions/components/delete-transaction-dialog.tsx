import { ADMIN_TX_MSG, type TAdminTransactionSummary, type TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { tellProposed } from '@web/lib/staff';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useDeleteAdminTransaction } from '../api/delete-admin-transaction';

/**
 * The confirmation, the reason the audit log keeps, then the admin's own step-up: a
 * deletion reverses the row's effect on a balance.
 */
export function DeleteTransactionDialog({
  transaction,
  onOpenChange,
}: {
  transaction: TAdminTransactionSummary | null;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const form = useZodForm<{ reason: string }>(
    null,
    { reason: '' },
    {
      check: ({ reason }) => (reason.trim() === '' ? { form: ADMIN_TX_MSG.reasonRequired } : {}),
    },
  );
  /** The reason, once given: the step-up dialog is open to confirm it. */
  const [asking, setAsking] = useState<string | null>(null);
  const del = useDeleteAdminTransaction();

  function close(open: boolean) {
    if (!open) {
      form.reset();
      setAsking(null);
    }
    onOpenChange(open);
  }

  function submit({ reason }: { reason: string }) {
    if (!transaction) return;
    setAsking(reason.trim());
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction || asking === null) return;
    // Proposed: the transaction stays until another staff member approves its deletion.
    tellProposed(await del.mutateAsync({ id: transaction.id, body: { reason: asking, stepUp } }));
    close(false);
  }

  function failed(err: unknown) {
    // Back to the form with the server's reason (final history, a hold).
    setAsking(null);
    const message = showServerError(form, err, (e) => errorMessage(e, 'Please try again.'));
    toast.error(ADMIN_TX_MSG.deleteFailed, { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking !== null}
        title="Confirm the deletion"
        description="Proposes the deletion: when another staff member approves it, the transaction is marked deleted and its effect on the customer's balance is reversed."
        confirmLabel="Propose deletion"
        pendingLabel="Proposing..."
        danger
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog open={transaction !== null && asking === null} onOpenChange={close}>
        <DialogContent title="Delete transaction" description={ADMIN_TX_MSG.deleteConfirm}>
          <Form form={form} onSubmit={submit} className="space-y-4">
            <p className="text-sm text-muted">
              Its effect on the customer's balance is reversed; the row stays in the audit log.
            </p>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-reason`}>Reason</Label>
              <Textarea
                id={`${id}-reason`}
                rows={2}
                value={form.watch('reason')}
                onChange={(e) => form.setValue('reason', e.target.value)}
              />
            </div>
            <FormError />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="danger">
                Delete
              </Button>
            </div>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
