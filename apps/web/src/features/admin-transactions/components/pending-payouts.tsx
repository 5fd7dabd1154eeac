import {
  ADMIN_TX_MSG,
  normalizeBankReference,
  normalizeTxHash,
  type TAdminTransaction,
  type TReferenceResult,
  type TStepUp,
} from '@coffer/shared';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { PayoutStateBadge } from '../../../components/admin/payout-state-badge';
import { STACKED } from '../../../components/admin/stacked-table';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Input, Textarea } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { useApprovePayout } from '../api/approve-payout';
import { useCompletePayout } from '../api/complete-payout';
import { usePendingPayouts } from '../api/get-pending-payouts';
import { useRejectPayout } from '../api/reject-payout';
import {
  assetText,
  audRateText,
  audText,
  cryptoText,
  customerText,
  dateText,
  HeldAmount,
  isFundedBankPayout,
  priceText,
  typeText,
  usdText,
} from './present';

const isBank = (tx: TAdminTransaction) => tx.type === 'bank_transfer';

function amountOf(tx: TAdminTransaction): string {
  if (!isBank(tx)) return cryptoText(tx);
  const fiat = tx.currency === 'USD' ? usdText(tx) : audText(tx);
  // A funded payout also names what it holds, so the dialogs say what will be debited.
  return isFundedBankPayout(tx) ? `${fiat} (${cryptoText(tx)} held)` : fiat;
}

/**
 * A bank payout's figures: the AUD paid, the crypto held for it, its USD value and both
 * rates it was converted at (product.md M11).
 */
function Amount({ tx }: { tx: TAdminTransaction }) {
  if (!isBank(tx)) return <>{cryptoText(tx)}</>;
  const fiat = tx.currency === 'USD' ? usdText(tx) : audText(tx);
  if (!isFundedBankPayout(tx)) return <>{fiat}</>;
  return (
    <span className="min-w-0">
      <span className="block font-medium">{fiat}</span>
      <span className="block whitespace-nowrap">
        <HeldAmount tx={tx} />
      </span>
      <span className="block">≈ {usdText(tx)}</span>
      <span className="block text-xs text-muted">
        {[
          tx.audUsdRate ? audRateText(tx.audUsdRate) : null,
          tx.priceUsd ? priceText(tx, tx.priceUsd) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </span>
  );
}

/** What staff must type to prove the payout left: the rule's message, or the normalised value. */
function checkReference(tx: TAdminTransaction, reference: string): TReferenceResult {
  return isBank(tx) ? normalizeBankReference(reference) : normalizeTxHash(tx.assetId, reference);
}

function Destination({ tx }: { tx: TAdminTransaction }) {
  if (tx.bankTransfer) {
    return (
      <span className="text-xs">
        {tx.bankTransfer.accountName}
        <br />
        BSB {tx.bankTransfer.bsbNumber} · {tx.bankTransfer.accountNumber}
      </span>
    );
  }
  return <span className="break-all font-mono text-xs">{tx.withdrawalAddress ?? '—'}</span>;
}

/**
 * What staff may do with a pending payout now. A bank transfer is completed with the bank's
 * reference. A crypto withdrawal is approved first (by a second admin); once approved it is
 * paid by a batch on Payouts or completed with the hash of a payment made outside Coffer.
 * Once a batch may pay it, the chain decides: it is neither rejected nor completed by hand.
 */
function actionsOf(tx: TAdminTransaction): 'complete' | 'approve' | 'none' {
  if (isBank(tx)) return 'complete';
  const state = tx.payoutState ?? null;
  if (state === null) return 'approve';
  return state === 'approved' ? 'complete' : 'none';
}

function Actions({
  tx,
  onApprove,
  onComplete,
  onReject,
}: {
  tx: TAdminTransaction;
  onApprove: () => void;
  onComplete: () => void;
  onReject: () => void;
}) {
  const actions = actionsOf(tx);
  return (
    // Stacked (phone): the badge and buttons share a line. Wide: the badge above the buttons,
    // which stay side by side.
    <div className="flex flex-wrap items-center gap-2 md:flex-col md:items-end">
      {tx.payoutState ? <PayoutStateBadge state={tx.payoutState} /> : null}
      <div className="flex gap-2 empty:hidden">
        {actions === 'approve' ? (
          <Button size="sm" onClick={onApprove}>
            Approve
          </Button>
        ) : null}
        {actions === 'complete' ? (
          <Button size="sm" onClick={onComplete}>
            Complete
          </Button>
        ) : null}
        {actions !== 'none' ? (
          <Button size="sm" variant="outline" onClick={onReject}>
            Reject
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** The toast after a crypto withdrawal's hash is taken: what the chain check made of it. */
function completedText(tx: TAdminTransaction): { title: string; description?: string } {
  if (isBank(tx)) return { title: 'Bank transfer completed' };
  switch (tx.payoutState) {
    case 'unverified':
      return {
        title: 'Withdrawal completed: Unverified',
        description: 'Coffer does not watch this chain, so the hash was recorded unchecked.',
      };
    case 'manual':
      return {
        title: 'Hash recorded: waiting for the chain',
        description: 'The withdrawal completes once the chain shows this transaction confirmed.',
      };
    case 'confirming':
      return {
        title: 'Hash recorded: confirming',
        description: 'The chain shows the payment; it completes once confirmed.',
      };
    default:
      return { title: 'Withdrawal completed' };
  }
}

/**
 * Pending withdrawals (product.md M6): the payouts waiting for staff, oldest first. The
 * server enforces four-eyes: whoever recorded or edited a request cannot approve or complete
 * it.
 */
export function PendingPayouts() {
  const pending = usePendingPayouts();
  const [approving, setApproving] = useState<TAdminTransaction | null>(null);
  // Why the last approval was refused, kept on screen (a toast goes away).
  const [refusal, setRefusal] = useState<string | null>(null);
  const [completing, setCompleting] = useState<TAdminTransaction | null>(null);
  const [rejecting, setRejecting] = useState<TAdminTransaction | null>(null);

  if (pending.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="h-8 w-8" label="Loading pending withdrawals" />
      </div>
    );
  }
  if (pending.isError) {
    return (
      <p role="alert" className="text-sm text-danger">
        Could not load pending withdrawals: {pending.error.message}
      </p>
    );
  }
  const items = pending.data.items;
  return (
    <Card>
      <CardContent className="space-y-4 pt-5">
        {refusal ? (
          <p role="alert" className="text-sm text-danger">
            Not approved: {refusal}
          </p>
        ) : null}
        {items.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted">No withdrawals are waiting.</p>
        ) : (
          <table className={STACKED.table}>
            <caption className="sr-only">Pending withdrawals, oldest first</caption>
            <thead className={STACKED.head}>
              <tr>
                <th className={STACKED.headCell}>Requested</th>
                <th className={STACKED.headCell}>Customer</th>
                <th className={STACKED.headCell}>Type</th>
                <th className={STACKED.headCell}>Amount</th>
                <th className={STACKED.headCell}>Destination</th>
                <th className={STACKED.headCell}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {items.map((tx) => (
                <tr key={tx.id} className={STACKED.row}>
                  <td data-label="Requested" className={STACKED.cell}>
                    {dateText(tx.date)}
                  </td>
                  <td data-label="Customer" className={STACKED.cell}>
                    <span className="min-w-0 break-words">
                      {customerText(tx)}
                      {customerText(tx) !== tx.customer.email ? (
                        <span className="block text-xs text-muted">{tx.customer.email}</span>
                      ) : null}
                    </span>
                  </td>
                  <td data-label="Type" className={STACKED.cell}>
                    <span className="min-w-0">
                      {typeText(tx.type)}
                      {isFundedBankPayout(tx) ? (
                        <span className="block text-xs text-muted">from {assetText(tx)}</span>
                      ) : null}
                    </span>
                  </td>
                  <td data-label="Amount" className={`${STACKED.cell} tabular-nums`}>
                    <Amount tx={tx} />
                  </td>
                  <td data-label="Destination" className={STACKED.cell}>
                    <Destination tx={tx} />
                  </td>
                  <td className={STACKED.wideCell}>
                    <Actions
                      tx={tx}
                      onApprove={() => {
                        setRefusal(null);
                        setApproving(tx);
                      }}
                      onComplete={() => setCompleting(tx)}
                      onReject={() => setRejecting(tx)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
      <ApproveDialog
        transaction={approving}
        onClose={() => setApproving(null)}
        onRefused={setRefusal}
      />
      <CompleteDialog transaction={completing} onClose={() => setCompleting(null)} />
      <RejectDialog transaction={rejecting} onClose={() => setRejecting(null)} />
    </Card>
  );
}

function CompleteDialog({
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

/**
 * Approves a crypto withdrawal for payment on chain with the admin's step-up. A refusal
 * (four eyes, already approved, an address Coffer cannot pay) goes to `onRefused`, and the
 * request stays as it was.
 */
function ApproveDialog({
  transaction,
  onClose,
  onRefused,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
  onRefused: (message: string) => void;
}) {
  const approve = useApprovePayout();

  async function confirm(stepUp: TStepUp) {
    if (!transaction) return;
    await approve.mutateAsync({ id: transaction.id, stepUp });
    toast.success('Withdrawal approved', {
      description: 'It can now be paid in a batch on Payouts, or completed with its hash.',
    });
    onClose();
  }

  function failed(err: unknown) {
    onClose();
    const message = errorMessage(err, 'Please try again.');
    onRefused(message);
    toast.error('Failed to approve the withdrawal', { description: message });
  }

  return (
    <StepUpDialog
      open={transaction !== null}
      title="Approve withdrawal"
      description={
        transaction
          ? `Approve ${amountOf(transaction)} for ${customerText(transaction)} to ${transaction.withdrawalAddress ?? 'its address'}: it can then be paid on chain.`
          : ''
      }
      confirmLabel="Confirm and approve"
      pendingLabel="Approving..."
      onCancel={onClose}
      onConfirm={confirm}
      onFailure={failed}
    />
  );
}

function RejectDialog({
  transaction,
  onClose,
}: {
  transaction: TAdminTransaction | null;
  onClose: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const reject = useRejectPayout();

  function close() {
    setReason('');
    setError(null);
    setAsking(false);
    onClose();
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!transaction) return;
    if (reason.trim() === '') {
      setError('Enter the reason the customer will see.');
      return;
    }
    setAsking(true);
  }

  async function confirm(stepUp: TStepUp) {
    if (!transaction) return;
    await reject.mutateAsync({ id: transaction.id, reason: reason.trim(), stepUp });
    toast.success('Request rejected');
    close();
  }

  function failed(err: unknown) {
    setAsking(false);
    const message = errorMessage(err, 'Please try again.');
    setError(message);
    toast.error('Failed to reject the request', { description: message });
  }

  return (
    <>
      <StepUpDialog
        open={transaction !== null && asking}
        title="Confirm the rejection"
        description={
          transaction
            ? `Reject ${amountOf(transaction)} for ${customerText(transaction)}: the hold is released and the customer is e-mailed.`
            : ''
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
          <form onSubmit={submit} noValidate className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-reason`}>Reason (shown to the customer)</Label>
              <Textarea
                id={`${id}-reason`}
                rows={3}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </div>
            {error ? (
              <p role="alert" className="text-sm text-danger">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={reject.isPending}>
                {reject.isPending ? 'Rejecting...' : 'Reject'}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
