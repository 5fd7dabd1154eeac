import type { TAdminTransaction } from '@coffer/shared';
import { PayoutStateBadge } from '@web/components/admin/payout-state-badge';
import { CustomerText } from '@web/components/ui/customer-text';
import { Dialog, DialogContent } from '@web/components/ui/dialog';
import type { ReactNode } from 'react';
import {
  assetText,
  audRateText,
  audText,
  CustomerWithEmail,
  dateText,
  HeldAmount,
  isFundedBankPayout,
  isPayout,
  priceText,
  StatusBadge,
  typeText,
  usdText,
} from './present';
import { WithTransaction } from './with-transaction';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8.5rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** Transaction Details of the transaction `transactionId`, read on opening. */
export function TransactionDetailsDialog({
  transactionId,
  onOpenChange,
}: {
  transactionId: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={transactionId !== null} onOpenChange={onOpenChange}>
      <DialogContent title="Transaction Details">
        {transactionId ? (
          <WithTransaction id={transactionId}>{(tx) => <Details tx={tx} />}</WithTransaction>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function Details({ tx }: { tx: TAdminTransaction }) {
  const funded = isFundedBankPayout(tx);
  return (
    <dl className="divide-y divide-border">
      <Row label="Transaction ID">
        <span className="font-mono text-xs">{tx.id}</span>
      </Row>
      <Row label="Customer">
        <CustomerWithEmail tx={tx} />
      </Row>
      <Row label="Type">{typeText(tx.type)}</Row>
      <Row label={funded ? 'Paid from' : 'Asset'}>
        {tx.direction === 'none' ? tx.currency : assetText(tx)}
      </Row>
      <Row label="Crypto amount">
        <HeldAmount tx={tx} />
      </Row>
      {tx.fee !== '0' ? <Row label="Network fee">{tx.fee}</Row> : null}
      <Row label="USD amount">{usdText(tx)}</Row>
      <Row label="AUD amount">{audText(tx)}</Row>
      {tx.audUsdRate ? <Row label="AUD rate">{audRateText(tx.audUsdRate)}</Row> : null}
      {tx.priceUsd ? (
        <Row label={`${assetText(tx)} price`}>{priceText(tx, tx.priceUsd)}</Row>
      ) : null}
      <Row label="Status">
        <StatusBadge status={tx.status} type={tx.type} />
      </Row>
      {tx.payoutState ? (
        <Row label="Payout">
          <PayoutStateBadge state={tx.payoutState} />
        </Row>
      ) : null}
      <Row label="Date">{dateText(tx.date)}</Row>
      {tx.completedAt ? <Row label="Completed">{dateText(tx.completedAt)}</Row> : null}
      {tx.withdrawalAddress ? (
        <Row label="Withdrawal address">
          <CustomerText text={tx.withdrawalAddress} className="font-mono text-xs" />
        </Row>
      ) : null}
      {tx.memo ? (
        <Row label="Memo">
          <CustomerText text={tx.memo} className="font-mono text-xs" />
        </Row>
      ) : null}
      {tx.transactionHash ? (
        <Row label={tx.type === 'bank_transfer' ? 'Bank reference' : 'Transaction hash'}>
          <span className="font-mono text-xs">{tx.transactionHash}</span>
        </Row>
      ) : null}
      {tx.reason ? (
        <Row
          label={isPayout(tx.type) && tx.status === 'failed' ? 'Rejected because' : 'Reason shown'}
        >
          {tx.reason}
        </Row>
      ) : null}
      {tx.bankTransfer ? (
        <>
          <Row label="Account name">
            <CustomerText text={tx.bankTransfer.accountName} />
          </Row>
          <Row label="Account number">
            <CustomerText text={tx.bankTransfer.accountNumber} />
          </Row>
          <Row label="BSB number">
            <CustomerText text={tx.bankTransfer.bsbNumber} />
          </Row>
          <Row label="Bank amount">
            {tx.bankTransfer.amountFiat} {tx.bankTransfer.currency}
          </Row>
        </>
      ) : null}
    </dl>
  );
}
