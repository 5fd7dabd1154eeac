import { ADMIN_TX_MSG, type TAdminTransaction } from '@coffer/shared';
import { UserPicker } from '@web/components/admin/user-picker';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, FormError } from '@web/components/ui/form';
import { Input, Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { type ReactNode, useId } from 'react';
import { BankingDetailsFields } from './banking-details-fields';
import { CustomerWithEmail } from './present';
import { TransactionDetailFields } from './transaction-detail-fields';
import { useTransactionForm } from './use-transaction-form';
import { WithTransaction } from './with-transaction';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The transaction to edit, read afresh on opening; null for Add Transaction. */
  transactionId: string | null;
};

/** Add Transaction and Edit Transaction: one form, every change with a reason. */
export function TransactionFormDialog({ open, onOpenChange, transactionId }: Props) {
  const done = () => onOpenChange(false);
  let form: ReactNode = null;
  if (open) {
    // Keyed so each opening starts from the row as it is now (or an empty form) again.
    form = transactionId ? (
      <WithTransaction id={transactionId}>
        {(tx) => <TransactionForm key={tx.id} transaction={tx} onDone={done} />}
      </WithTransaction>
    ) : (
      <TransactionForm key="new" transaction={null} onDone={done} />
    );
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={transactionId ? 'Edit Transaction' : 'Add Transaction'}
        description={
          transactionId
            ? 'Changes re-apply the ledger effect and are recorded in the audit log.'
            : 'A completed deposit or buy credits the wallet; a withdrawal waits for another admin.'
        }
        className="max-w-2xl"
      >
        {form}
      </DialogContent>
    </Dialog>
  );
}

function TransactionForm({
  transaction,
  onDone,
}: {
  transaction: TAdminTransaction | null;
  onDone: () => void;
}) {
  const id = useId();
  const { form, locked, busy, ...steps } = useTransactionForm(transaction, onDone);
  const f = form.watch();
  const field = (name: string) => `${id}-${name}`;

  return (
    <>
      {/* Beside the form, not in it: a submit inside the dialog must not submit the form. */}
      <StepUpDialog
        open={steps.asking}
        title={transaction ? 'Confirm the change' : 'Confirm the new transaction'}
        description={
          transaction
            ? 'Proposes the correction: its ledger effect is re-applied when another staff member approves it.'
            : 'Proposes the transaction: its ledger effect applies to the customer’s wallet when another staff member approves it.'
        }
        confirmLabel="Propose"
        pendingLabel="Proposing..."
        onCancel={steps.cancelAsking}
        onConfirm={steps.confirm}
        onFailure={steps.failed}
      />
      <Form form={form} onSubmit={steps.submit} className="space-y-4">
        {transaction ? (
          <p className="text-sm">
            <span className="text-muted">Customer: </span>
            <CustomerWithEmail tx={transaction} />
          </p>
        ) : (
          <UserPicker
            value={f.user}
            onChange={(user) => form.setValue('user', user)}
            label="User"
          />
        )}
        {locked ? (
          <p className="rounded-lg border border-border bg-surface-2 p-3 text-sm text-muted">
            {ADMIN_TX_MSG.customerPayoutLocked}
          </p>
        ) : null}

        <TransactionDetailFields form={form} field={field} locked={locked} />

        {f.type === 'withdrawal' ? (
          <div className="space-y-1.5">
            <Label htmlFor={field('address')}>Withdrawal address</Label>
            <Input
              id={field('address')}
              autoComplete="off"
              spellCheck={false}
              value={f.withdrawalAddress}
              disabled={locked}
              onChange={(e) => form.setValue('withdrawalAddress', e.target.value)}
            />
          </div>
        ) : null}

        {f.type === 'bank_transfer' ? (
          <BankingDetailsFields form={form} field={field} locked={locked} />
        ) : null}

        <div className="space-y-1.5">
          <Label htmlFor={field('reason')}>Reason</Label>
          <Textarea
            id={field('reason')}
            rows={2}
            placeholder="Why this change is made (kept in the audit log)"
            value={f.reason}
            onChange={(e) => form.setValue('reason', e.target.value)}
          />
        </div>

        <FormError />

        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="outline" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : transaction ? 'Save Changes' : 'Add Transaction'}
          </Button>
        </div>
      </Form>
    </>
  );
}
