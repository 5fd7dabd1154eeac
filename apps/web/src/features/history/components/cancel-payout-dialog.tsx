import { formatAud, type TTransaction } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { useState } from 'react';
import { toast } from 'sonner';
import { useCancelPayout } from '../api/cancel-payout';
import { cryptoText } from './crypto-text';
import { destinationOf } from './payout-destination';

/** What the request is for and what is held for it, in the words the dialog and toast use. */
function factsOf(tx: TTransaction) {
  const bank = tx.type === 'bank_transfer';
  const crypto = cryptoText(tx.amount, tx.assetId, tx.symbol);
  const hasFee = /[1-9]/.test(tx.fee);
  return {
    to: destinationOf(tx) ?? (bank ? 'your bank account' : 'your address'),
    what: bank ? 'bank transfer' : 'withdrawal',
    amount: bank && tx.audAmount !== null ? formatAud(tx.audAmount) : crypto,
    crypto,
    held: hasFee
      ? `${crypto} and its ${cryptoText(tx.fee, tx.assetId, tx.symbol, true)} network fee`
      : crypto,
    bank,
  };
}

/**
 * Asks before cancelling a pending withdrawal or bank payout, naming what it is for and
 * where it would go; cancelled, what was held for it is available again.
 */
export function CancelPayoutDialog({
  transaction,
  onClose,
}: {
  transaction: TTransaction | null;
  onClose: () => void;
}) {
  const cancel = useCancelPayout();
  const [refusal, setRefusal] = useState<string | null>(null);
  const facts = transaction ? factsOf(transaction) : null;

  function close() {
    setRefusal(null);
    cancel.reset();
    onClose();
  }

  function confirm() {
    if (!transaction || !facts) return;
    setRefusal(null);
    cancel.mutate(transaction.id, {
      onSuccess: () => {
        toast.success(facts.bank ? 'Bank transfer cancelled' : 'Withdrawal cancelled', {
          description: 'What was held for it is available again in your balance.',
        });
        close();
      },
      onError: (err) => {
        const message = errorMessage(err, 'The request could not be cancelled. Please try again.');
        setRefusal(message);
        toast.error('Could not cancel', { description: message });
      },
    });
  }

  return (
    <Dialog open={transaction !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent
        title={facts ? `Cancel this ${facts.what}?` : ''}
        description={
          facts
            ? `Your ${facts.amount} ${facts.what} will not be ${facts.bank ? 'paid' : 'sent'}.`
            : undefined
        }
      >
        {transaction && facts ? (
          <div className="space-y-4">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted">Amount</dt>
              <dd className="wrap-anywhere tabular-nums text-fg">{facts.amount}</dd>
              <dt className="text-muted">{facts.bank ? 'Paid from' : 'Asset'}</dt>
              <dd className="text-fg">{facts.bank ? facts.crypto : transaction.symbol}</dd>
              <dt className="text-muted">To</dt>
              <dd
                translate="no"
                className={cn('wrap-anywhere text-fg', !facts.bank && 'font-mono')}
              >
                {facts.to}
              </dd>
            </dl>
            <p className="text-sm text-muted">
              The {facts.held} held for it will be available again at once.
            </p>
            {refusal ? (
              <p role="alert" className="text-sm text-danger">
                {refusal}
              </p>
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={close} disabled={cancel.isPending}>
                Keep it
              </Button>
              <Button variant="danger" onClick={confirm} disabled={cancel.isPending}>
                {cancel.isPending ? 'Cancelling...' : `Cancel ${facts.what}`}
              </Button>
            </div>
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
