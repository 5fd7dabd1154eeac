import {
  ADMIN_TRANSACTION_TYPES,
  ADMIN_TX_MSG,
  type TAdminTransaction,
  type TAdminTransactionDraft,
  type TAdminTransactionEditDraft,
  type TStepUp,
  ZAdminTransactionDraft,
  ZAdminTransactionEditDraft,
} from '@coffer/shared';
import { SELECT_CLASS } from '@web/components/admin/stacked-table';
import { UserPicker } from '@web/components/admin/user-picker';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { Input, Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { useIdempotencyKey } from '@web/lib/money/idempotency';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { useCreateAdminTransaction } from '../api/create-admin-transaction';
import { useUpdateAdminTransaction } from '../api/update-admin-transaction';
import { BankingDetailsFields } from './banking-details-fields';
import { CustomerWithEmail } from './present';
import { TransactionAmountFields } from './transaction-amount-fields';
import {
  customerPayout,
  initialFields,
  isAdminType,
  type TTransactionFields,
  TYPE_LABELS,
  transactionBodyOf,
} from './transaction-fields';
import { WithTransaction } from './with-transaction';

/** What waits for the admin's fresh second factor: the checked form, as it will be sent. */
type Asking =
  | { kind: 'create'; body: TAdminTransactionDraft; key: string }
  | { kind: 'update'; id: string; body: TAdminTransactionEditDraft };

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
  const [asking, setAsking] = useState<Asking | null>(null);
  const locked = customerPayout(transaction);
  const create = useCreateAdminTransaction();
  const update = useUpdateAdminTransaction();
  const idempotency = useIdempotencyKey();
  const busy = create.isPending || update.isPending;

  /** The request as it will be sent: an edit keeps its customer, a new one names one. */
  const requestOf = (f: TTransactionFields) =>
    transaction ? transactionBodyOf(f) : { ...transactionBodyOf(f), userId: f.user?.id ?? '' };
  // The form checks what the server will, and shows its first message above the buttons.
  const form = useZodForm<TTransactionFields>(null, initialFields(transaction), {
    check: (f) => {
      const schema = transaction ? ZAdminTransactionEditDraft : ZAdminTransactionDraft;
      const parsed = schema.safeParse(requestOf(f));
      if (parsed.success) return {};
      return { form: parsed.error.issues[0]?.message ?? ADMIN_TX_MSG.requiredFields };
    },
  });
  const f = form.watch();
  const bank = f.type === 'bank_transfer';

  // A message about the form as it was goes away once the admin changes it.
  useEffect(() => {
    const watching = form.watch(() => form.clearErrors('root'));
    return () => watching.unsubscribe();
  }, [form]);

  /** Asks for the admin's fresh second factor for the checked request. */
  function submit(values: TTransactionFields) {
    if (transaction) {
      const body = transactionBodyOf(values);
      if (!ZAdminTransactionEditDraft.safeParse(body).success) return;
      setAsking({ kind: 'update', id: transaction.id, body });
      return;
    }
    const body = { ...transactionBodyOf(values), userId: values.user?.id ?? '' };
    if (!ZAdminTransactionDraft.safeParse(body).success) return;
    // The key stands for the request without its step-up: a retry with a new code is the same.
    setAsking({ kind: 'create', body, key: idempotency.keyFor(body) });
  }

  async function confirm(stepUp: TStepUp) {
    if (!asking) return;
    if (asking.kind === 'update') {
      await update.mutateAsync({ id: asking.id, body: { ...asking.body, stepUp } });
      toast.success(ADMIN_TX_MSG.updated);
    } else {
      try {
        await create.mutateAsync({ body: { ...asking.body, stepUp }, key: asking.key });
      } catch (err) {
        idempotency.settle(err);
        throw err;
      }
      idempotency.settle();
      toast.success(ADMIN_TX_MSG.added);
    }
    setAsking(null);
    onDone();
  }

  function failed(err: unknown) {
    const kind = asking?.kind;
    setAsking(null);
    const message = showServerError(form, err, (e) => errorMessage(e, 'Please try again.'));
    if (kind === 'update') toast.error(ADMIN_TX_MSG.updateFailed, { description: message });
    else toast.error(`${ADMIN_TX_MSG.addFailed}: ${message}`);
  }

  const field = (name: string) => `${id}-${name}`;

  return (
    <>
      {/* Beside the form, not in it: a submit inside the dialog must not submit the form. */}
      <StepUpDialog
        open={asking !== null}
        title={transaction ? 'Confirm the change' : 'Confirm the new transaction'}
        description={
          transaction
            ? 'Saving re-applies the ledger effect of this transaction.'
            : 'Adding it applies its ledger effect to the customer’s wallet.'
        }
        confirmLabel={transaction ? 'Confirm and save' : 'Confirm and add'}
        pendingLabel="Saving..."
        onCancel={() => setAsking(null)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Form form={form} onSubmit={submit} className="space-y-4">
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

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1.5">
            <Label htmlFor={field('type')}>Type</Label>
            <select
              id={field('type')}
              className={SELECT_CLASS}
              value={f.type}
              onChange={(e) => {
                const next = e.target.value;
                if (isAdminType(next)) form.setValue('type', next);
              }}
            >
              {ADMIN_TRANSACTION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          <TransactionAmountFields form={form} field={field} locked={locked} />
          <div className="space-y-1.5">
            <Label htmlFor={field('status')}>Status</Label>
            <select
              id={field('status')}
              className={SELECT_CLASS}
              value={f.status}
              onChange={(e) => {
                const v = e.target.value;
                if (v === 'pending' || v === 'completed' || v === 'failed') {
                  form.setValue('status', v);
                }
              }}
            >
              <option value="pending">Pending</option>
              <option value="completed">Completed</option>
              <option value="failed">Failed</option>
            </select>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={field('date')}>Date and time</Label>
            <Input
              id={field('date')}
              type="datetime-local"
              value={f.date}
              onChange={(e) => form.setValue('date', e.target.value)}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={field('hash')}>
              {bank ? 'Bank reference (optional)' : 'Transaction hash (optional)'}
            </Label>
            <Input
              id={field('hash')}
              autoComplete="off"
              value={f.transactionHash}
              onChange={(e) => form.setValue('transactionHash', e.target.value)}
            />
          </div>
        </div>

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

        {bank ? <BankingDetailsFields form={form} field={field} locked={locked} /> : null}

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
