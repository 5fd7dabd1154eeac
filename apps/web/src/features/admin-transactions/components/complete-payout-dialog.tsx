import { ADMIN_TX_MSG, type TAdminTransaction, type TStepUp } from '@coffer/shared';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, FormField, FormMessage, showServerError, useZodForm } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { errorMessage } from '@web/lib/api-client';
import { tellProposed } from '@web/lib/staff';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useCompletePayout } from '../api/complete-payout';
import { amountOf, checkReference, DestinationFacts, isBank } from './pending-payout-present';
import { CustomerName } from './present';

type TFields = { reference: string };

export function CompleteDialog({
  transaction,
  onClose,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
}) {
  const id = useId();
  // The checked reference waiting for the admin's fresh second factor (step-up).
  const [asking, setAsking] = useState<string | null>(null);
  const complete = useCompletePayout();
  const bank = transaction ? isBank(transaction) : false;
  const form = useZodForm<TFields>(
    null,
    { reference: '' },
    {
      check: ({ reference }) => {
        if (!transaction) return {};
        if (reference.trim() === '') {
          return {
            reference: bank ? ADMIN_TX_MSG.bankReferenceRequired : ADMIN_TX_MSG.hashRequired,
          };
        }
        const checked = checkReference(transaction, reference);
        return checked.ok ? {} : { reference: checked.message };
      },
    },
  );
  const reference = form.watch('reference');
  // The shared rule, checked as staff type; the server applies the same one.
  const check =
    transaction && reference.trim() !== '' ? checkReference(transaction, reference) : null;
  const ruleMessage = check && !check.ok ? check.message : undefined;

  function close() {
    form.reset();
    setAsking(null);
    onClose();
  }

  function submit(values: TFields) {
    if (!transaction) return;
    const checked = checkReference(transaction, values.reference);
    if (!checked.ok) return;
    setAsking(checked.value);
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction || asking === null) return;
    // Proposed: it stays waiting until another staff member approves the completion.
    tellProposed(await complete.mutateAsync({ id: transaction.id, reference: asking, stepUp }));
    close();
  }

  function failed(err: unknown) {
    // Back to the form with the server's reason (four eyes, a hold, a stale request).
    setAsking(null);
    const message = showServerError(
      form,
      err,
      (e) => errorMessage(e, 'Please try again.'),
      () => 'reference',
    );
    toast.error('Failed to complete withdrawal', { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking !== null}
        title={bank ? 'Confirm the bank transfer' : 'Confirm the withdrawal'}
        description={
          transaction ? (
            <>
              Mark {amountOf(transaction)} for <CustomerName tx={transaction} /> as paid out, once
              another staff member approves it.
            </>
          ) : (
            ''
          )
        }
        confirmLabel="Propose completion"
        pendingLabel="Proposing..."
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
            transaction ? (
              <>
                {amountOf(transaction)} for <CustomerName tx={transaction} />. The held amount is
                debited and the customer is e-mailed.
              </>
            ) : undefined
          }
        >
          {transaction ? <DestinationFacts tx={transaction} /> : null}
          <Form
            form={form}
            onSubmit={submit}
            live={{ errors: { reference: ruleMessage }, shown: () => true }}
            className="space-y-4"
          >
            <FormField
              name="reference"
              id={`${id}-ref`}
              label={bank ? 'Bank reference' : 'Chain transaction hash'}
              messageId={`${id}-ref-error`}
              className="space-y-1.5"
            >
              {(control) => (
                <Input
                  {...control}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(e) => {
                    control.onChange(e);
                    form.clearErrors('reference');
                  }}
                />
              )}
            </FormField>
            <FormMessage name="reference" id={`${id}-ref-error`} />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={complete.isPending}>
                {complete.isPending ? 'Completing...' : 'Mark as completed'}
              </Button>
            </div>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
