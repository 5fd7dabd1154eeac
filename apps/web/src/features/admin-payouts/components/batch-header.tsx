import type { TPayoutBatch } from '@coffer/shared';
import { CardHeader, CardTitle } from '@web/components/ui/card';
import { Hash, shortId } from './batch-hash';
import { amountText, BatchStateBadge, CHAIN_LABELS, dateText } from './present';

/** The batch's fee with its unit (an ERC-20 payout's gas is ETH, never the token). */
function feeText(batch: TPayoutBatch): string {
  if (batch.fee === null) return '—';
  const fee = amountText(batch.feeAsset, batch.fee);
  return batch.feeRate ? `${fee} (${batch.feeRate} sat/vB)` : fee;
}

/** The batch's title, state, creation date, fee, file name and transaction hashes. */
export function BatchHeader({ batch, titleId }: { batch: TPayoutBatch; titleId: string }) {
  return (
    <CardHeader className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle id={titleId} className="text-base">
          {CHAIN_LABELS[batch.chain]} batch{' '}
          <span translate="no" className="font-mono">
            {shortId(batch.id)}
          </span>
        </CardTitle>
        <BatchStateBadge state={batch.state} />
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <div className="min-w-0">
          <dt className="text-xs text-muted">Created</dt>
          <dd className="text-fg">{dateText(batch.createdAt)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-muted">Fee</dt>
          <dd className="break-words tabular-nums text-fg">{feeText(batch)}</dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs text-muted">File</dt>
          <dd translate="no" className="truncate font-mono text-xs text-fg" title={batch.fileName}>
            {batch.fileName}
          </dd>
        </div>
        <div className="min-w-0 sm:col-span-2 lg:col-span-3">
          <dt className="text-xs text-muted">
            Transaction{batch.txHashes.length === 1 ? '' : 's'}
          </dt>
          <dd className="min-w-0">
            {batch.txHashes.length === 0 ? (
              <span className="text-muted">not signed yet</span>
            ) : (
              <ul className="min-w-0">
                {batch.txHashes.map((h) => (
                  <li key={h} className="min-w-0">
                    <Hash hash={h} />
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
      </dl>
    </CardHeader>
  );
}
