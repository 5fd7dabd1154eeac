import type { TPayoutItem, TPayoutsOverview, TStepUp } from '@coffer/shared';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { STACKED } from '@web/components/admin/stacked-table';
import { StepUpDialog } from '@web/components/step-up/step-up-dialog';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import { FORM_ERROR, Form, FormError, showServerError, useZodForm } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { useCan } from '@web/lib/staff';
import { RotateCcw, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { useResendPayout } from '../api/resend-payout';
import { useReturnPayout } from '../api/return-payout';
import { Hash } from './batch-hash';
import { amountText, assetLabel, CHAIN_LABELS } from './present';

/** 0.02 BTC to bcrt1… */
function paysText(p: TPayoutItem): string {
  return `${amountText(p.assetId, p.amount)} to ${p.address}`;
}

/**
 * Completed payouts whose transaction has left the chain for good, shown first: the
 * customer was debited and the chain no longer holds the payment. Coffer never pays them
 * again by itself. Re-send offers the node the same signed bytes (a treasurer, step-up);
 * Return to approved is proposed by one staff member and applied when another approves it,
 * after which the payout goes into the next build.
 */
export function ReversedPayouts({ overview }: { overview: TPayoutsOverview }) {
  const can = useCan();
  const mayResend = can('payouts.build');
  const mayPropose = can('money.propose');
  const resend = useResendPayout();
  const [resending, setResending] = useState<TPayoutItem | null>(null);
  const [returning, setReturning] = useState<TPayoutItem | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const items = overview.reversed;
  if (items.length === 0) return null;
  const label = CHAIN_LABELS[overview.chain];

  async function confirmResend(stepUp: TStepUp) {
    if (!resending) return;
    const done = await resend.mutateAsync({ id: resending.id, stepUp });
    setResending(null);
    toast.success('Sent again', { description: `The node took ${done.txHash}.` });
  }

  return (
    <section aria-labelledby="payouts-reversed-title" className="space-y-3">
      <Alert variant="danger" role="alert" title={`Reversed on chain: ${items.length}`}>
        {items.length === 1
          ? `${/^[AEIOU]/.test(label) ? 'An' : 'A'} ${label} payout was`
          : `${items.length} ${label} payouts were`}{' '}
        completed and the customer debited, but the transaction has since left the chain. Coffer
        does not pay {items.length === 1 ? 'it' : 'them'} again by itself: re-send the signed
        transaction, or propose returning the payout to approved (a second staff member approves
        it).
      </Alert>
      <h2 id="payouts-reversed-title" className="sr-only">
        Reversed on chain
      </h2>
      {refusal ? (
        <Alert variant="danger" role="alert" title="Nothing was sent">
          <span className="whitespace-pre-line break-words">{refusal}</span>
        </Alert>
      ) : null}
      <Card>
        <CardContent className="pt-5">
          <table className={STACKED.table}>
            <caption className="sr-only">{label} payouts reversed on chain</caption>
            <thead className={STACKED.head}>
              <tr>
                <th className={STACKED.headCell}>Customer</th>
                <th className={cn(STACKED.headCell, 'text-right')}>Amount</th>
                <th className={STACKED.headCell}>Address</th>
                <th className={STACKED.headCell}>Transaction</th>
                <th className={STACKED.headCell}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {items.map((p) => (
                <tr key={p.id} className={STACKED.row}>
                  <td data-label="Customer" className={STACKED.cell}>
                    <span className="min-w-0 break-words max-md:text-right">{p.customerEmail}</span>
                  </td>
                  <td
                    data-label="Amount"
                    className={cn(STACKED.cell, 'tabular-nums md:text-right')}
                  >
                    <span className="whitespace-nowrap">{amountText(p.assetId, p.amount)}</span>
                  </td>
                  <td data-label="Address" className={STACKED.cell}>
                    <CopyableAddress
                      address={p.address}
                      symbol={assetLabel(p.assetId)}
                      className="max-w-[9rem] lg:max-w-[14rem]"
                    />
                  </td>
                  <td data-label="Transaction" className={cn(STACKED.cell, 'min-w-0')}>
                    {p.txHash ? (
                      <span className="block max-w-[9rem] lg:max-w-[14rem]">
                        <Hash hash={p.txHash} />
                      </span>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td data-label="Actions" className={STACKED.cell}>
                    <span className="flex flex-wrap justify-end gap-2 md:justify-start">
                      {mayResend ? (
                        <Button
                          size="sm"
                          onClick={() => {
                            setRefusal(null);
                            setResending(p);
                          }}
                          disabled={resend.isPending || p.txHash === null}
                        >
                          <Send className="h-4 w-4" aria-hidden />
                          Re-send
                        </Button>
                      ) : null}
                      {mayPropose ? (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => {
                            setRefusal(null);
                            setReturning(p);
                          }}
                        >
                          <RotateCcw className="h-4 w-4" aria-hidden />
                          Return to approved
                        </Button>
                      ) : null}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </CardContent>
      </Card>
      <StepUpDialog
        open={resending !== null}
        title="Re-send the payout"
        description={
          resending
            ? `Offer the node the same signed transaction paying ${paysText(resending)} again. If it takes it, the payout waits for the chain's confirmations.`
            : ''
        }
        confirmLabel="Confirm and re-send"
        pendingLabel="Sending..."
        onCancel={() => setResending(null)}
        onConfirm={confirmResend}
        onFailure={(err) => {
          setResending(null);
          setRefusal(errorMessage(err, 'Please try again.'));
        }}
      />
      <ReturnDialog payout={returning} onClose={() => setReturning(null)} />
    </section>
  );
}

/** Proposing to pay a reversed payout again: a reason, then the step-up. */
function ReturnDialog({ payout, onClose }: { payout: TPayoutItem | null; onClose: () => void }) {
  const id = useId();
  const form = useZodForm<{ reason: string }>(
    null,
    { reason: '' },
    {
      check: ({ reason }) =>
        reason.trim().length < 3
          ? { [FORM_ERROR]: 'Say why this payout is to be paid again.' }
          : {},
    },
  );
  const [asking, setAsking] = useState(false);
  const propose = useReturnPayout();

  function close() {
    form.reset();
    setAsking(false);
    onClose();
  }

  async function confirm(stepUp: TStepUp) {
    if (!payout) return;
    await propose.mutateAsync({ id: payout.id, reason: form.getValues('reason').trim(), stepUp });
    toast.success('Proposed', {
      description: 'Another staff member must approve it before the payout is approved again.',
    });
    close();
  }

  function failed(err: unknown) {
    setAsking(false);
    showServerError(form, err, (e) => errorMessage(e, 'Please try again.'));
  }

  return (
    <>
      <StepUpDialog
        open={payout !== null && asking}
        title="Propose paying it again"
        description={
          payout
            ? `Return ${paysText(payout)} to approved: once another staff member approves, it goes into the next batch. The customer is not debited again.`
            : ''
        }
        confirmLabel="Confirm and propose"
        pendingLabel="Proposing..."
        onCancel={() => setAsking(false)}
        onConfirm={confirm}
        onFailure={failed}
      />
      <Dialog open={payout !== null && !asking} onOpenChange={(open) => (open ? null : close())}>
        <DialogContent
          title="Return to approved"
          description="Coffer pays it again in a new batch once a second staff member approves. Check first that the chain does not hold the payment."
        >
          <Form form={form} onSubmit={() => setAsking(true)} className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-reason`}>Reason (for the approver and the audit log)</Label>
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
              <Button type="submit" disabled={propose.isPending}>
                Propose
              </Button>
            </div>
          </Form>
        </DialogContent>
      </Dialog>
    </>
  );
}
