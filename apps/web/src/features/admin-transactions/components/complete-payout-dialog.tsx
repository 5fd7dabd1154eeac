import { ADMIN_TX_MSG, type TAdminTransaction, type TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { useCompletePayout } from '../api/complete-payout';
import { amountOf, checkReference, completedText, isBank } from './pending-payout-present';
import { customerText } from './present';

export function CompleteDialog({
  transaction,
  onClose,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
}) {
  const id = useId();
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The checked reference waiting for the admin's fresh second factor (step-up).
  const [asking, setAsking] = useState<string | null>(null);
  const complete = useCompletePayout();
  const bank = transaction ? isBank(transaction) : false;
  // The shared rule, checked as staff type; the server applies the same one.
  const check =
    transaction && reference.trim() !== '' ? checkReference(transaction, reference) : null;
  const ruleMessage = check && !check.ok ? check.message : null;

  function close() {
    setReference('');
    setError(null);
    setAsking(null);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!transaction) return;
    if (reference.trim() === '') {
      setError(bank ? ADMIN_TX_MSG.bankReferenceRequired : ADMIN_TX_MSG.hashRequired);
      return;
    }
    const checked = checkReference(transaction, reference);
    if (!checked.ok) return;
    setAsking(checked.value);
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction || asking === null) return;
    const done = await complete.mutateAsync({ id: transaction.id, reference: asking, stepUp });
    const text = completedText(done.transaction);
    toast.success(text.title, text.description ? { description: text.description } : undefined);
    close();
  }

  function failed(err: unknown) {
    // Back to the form with the server's reason (four eyes, a hold, a stale request).
    setAsking(null);
    const message = errorMessage(err, 'Please try again.');
    setError(message);
    toast.error('Failed to complete withdrawal', { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking !== null}
        title={bank ? 'Confirm the bank transfer' : 'Confirm the withdrawal'}
        description={
          transaction
            ? `Mark ${amountOf(transaction)} for ${customerText(transaction)} as paid out.`
            : ''
        }
        confirmLabel="Confirm and complete"
        pendingLabel="Completing..."
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog
        open={transaction !== null && asking === null}
        onOpenChange={(open) => (open ? null : close())}
      >
        <DialogContent
          title={bank ? 'Complete bank transfer' : 'Complete withdrawal'}
          description={
            transaction
              ? `${amountOf(transaction)} for ${customerText(transaction)}. The held amount is debited and the customer is e-mailed.`
              : undefined
          }
        >
          <form onSubmit={submit} noValidate className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-ref`}>
                {bank ? 'Bank reference' : 'Chain transaction hash'}
              </Label>
              <Input
                id={`${id}-ref`}
                autoComplete="off"
                spellCheck={false}
                value={reference}
                onChange={(e) => {
                  setReference(e.target.value);
                  setError(null);
                }}
                aria-invalid={ruleMessage || error ? true : undefined}
                aria-describedby={ruleMessage || error ? `${id}-ref-error` : undefined}
              />
            </div>
            {ruleMessage || error ? (
              <p id={`${id}-ref-error`} role="alert" className="text-sm text-danger">
                {ruleMessage ?? error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={complete.isPending}>
                {complete.isPending ? 'Completing...' : 'Mark as completed'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
