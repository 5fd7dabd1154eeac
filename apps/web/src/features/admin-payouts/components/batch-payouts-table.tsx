import type { TPayoutBatch } from '@coffer/shared';
import { CopyableAddress } from '@web/components/admin/copyable-address';
import { PayoutStateBadge } from '@web/components/admin/payout-state-badge';
import { STACKED } from '@web/components/admin/stacked-table';
import { cn } from '@web/lib/cn';
import { shortId } from './batch-hash';
import { amountText, assetLabel } from './present';

/** The batch's payouts as the chain sees them: state, confirmations and each one's fee. */
export function BatchPayoutsTable({ batch }: { batch: TPayoutBatch }) {
  return (
    <table className={STACKED.table}>
      <caption className="sr-only">Payouts of batch {shortId(batch.id)}</caption>
      <thead className={STACKED.head}>
        <tr>
          <th className={STACKED.headCell}>Customer</th>
          <th className={cn(STACKED.headCell, 'text-right')}>Amount</th>
          <th className={STACKED.headCell}>Address</th>
          <th className={STACKED.headCell}>State</th>
          <th className={STACKED.headCell}>Confirmations</th>
          <th className={cn(STACKED.headCell, 'text-right')}>Network fee</th>
        </tr>
      </thead>
      <tbody className={STACKED.body}>
        {batch.payouts.map((p) => (
          <tr key={p.id} className={STACKED.row}>
            <td data-label="Customer" className={STACKED.cell}>
              <span className="min-w-0 break-words max-md:text-right">{p.customerEmail}</span>
            </td>
            <td data-label="Amount" className={cn(STACKED.cell, 'tabular-nums md:text-right')}>
              <span className="whitespace-nowrap">{amountText(p.assetId, p.amount)}</span>
            </td>
            <td data-label="Address" className={STACKED.cell}>
              <CopyableAddress
                address={p.address}
                symbol={assetLabel(p.assetId)}
                className="max-w-[9rem] lg:max-w-[14rem]"
              />
            </td>
            <td data-label="State" className={STACKED.cell}>
              <PayoutStateBadge state={p.state} />
            </td>
            <td data-label="Confirmations" className={cn(STACKED.cell, 'tabular-nums')}>
              {p.txHash ? `${Math.min(p.confirmations, p.required)} of ${p.required}` : '—'}
            </td>
            <td data-label="Network fee" className={cn(STACKED.cell, 'tabular-nums md:text-right')}>
              <span className="whitespace-nowrap">
                {p.networkFee ? amountText(p.networkFeeAsset, p.networkFee) : '—'}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
