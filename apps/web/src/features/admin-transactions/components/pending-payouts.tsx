import {
  QUEUE_PAGE_SIZE,
  type TAdminTransaction,
  type TPendingPayoutsQuery,
  ZPendingPayoutsQuery,
} from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { QueuePager } from '@web/components/admin/queue-pager';
import { STACKED } from '@web/components/admin/stacked-table';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { useUrlQuery } from '@web/lib/use-url-query';
import { type ReactNode, useState } from 'react';
import { usePendingPayouts } from '../api/get-pending-payouts';
import { ApproveDialog } from './approve-payout-dialog';
import { CompleteDialog } from './complete-payout-dialog';
import { PendingFilters, pendingFiltered } from './pending-filters';
import { PendingPayoutRow } from './pending-payout-row';
import { RejectDialog } from './reject-payout-dialog';

const PENDING_DEFAULTS: TPendingPayoutsQuery = {
  q: '',
  asset: 'all',
  type: 'all',
  approval: 'all',
  order: 'oldest',
  cursor: undefined,
  limit: QUEUE_PAGE_SIZE,
};
/** The page's own parameter (which tab shows), kept while the queue's change. */
const PAGE_PARAMS = ['view'] as const;

function PendingTable({
  items,
  order,
  onApprove,
  onComplete,
  onReject,
}: {
  items: TAdminTransaction[];
  order: TPendingPayoutsQuery['order'];
  onApprove: (tx: TAdminTransaction) => void;
  onComplete: (tx: TAdminTransaction) => void;
  onReject: (tx: TAdminTransaction) => void;
}) {
  return (
    <table className={STACKED.table}>
      <caption className="sr-only">
        Pending withdrawals, {order === 'oldest' ? 'oldest' : 'newest'} first
      </caption>
      <thead className={STACKED.head}>
        <tr>
          <th className={STACKED.headCell}>Requested</th>
          <th className={STACKED.headCell}>Age</th>
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
          <PendingPayoutRow
            key={tx.id}
            tx={tx}
            onApprove={() => onApprove(tx)}
            onComplete={() => onComplete(tx)}
            onReject={() => onReject(tx)}
          />
        ))}
      </tbody>
    </table>
  );
}

/**
 * Pending withdrawals (product.md M6): the payouts waiting for staff, oldest first unless
 * asked otherwise, a page at a time, searched and filtered on the server; the search,
 * filters and page live in the address. The server enforces four-eyes: whoever recorded or
 * edited a request cannot approve or complete it.
 */
export function PendingPayouts() {
  const url = useUrlQuery(ZPendingPayoutsQuery, PENDING_DEFAULTS, PAGE_PARAMS);
  const { query } = url;
  const pending = usePendingPayouts(query);
  const [approving, setApproving] = useState<TAdminTransaction | null>(null);
  // Why the last approval was refused, kept on screen (a toast goes away).
  const [refusal, setRefusal] = useState<string | null>(null);
  const [completing, setCompleting] = useState<TAdminTransaction | null>(null);
  const [rejecting, setRejecting] = useState<TAdminTransaction | null>(null);

  let body: ReactNode;
  if (pending.isPending) {
    body = <LoadingState label="Loading pending withdrawals" className="py-10" />;
  } else if (pending.isError) {
    body = (
      <LoadError
        message={`Could not load pending withdrawals: ${pending.error.message}`}
        onRetry={() => void pending.refetch()}
        className="py-6"
      />
    );
  } else if (pending.data.items.length === 0) {
    body = (
      <p className="py-6 text-center text-sm text-muted">
        {pendingFiltered(query)
          ? 'No waiting withdrawals match the search and filters.'
          : 'No withdrawals are waiting.'}
      </p>
    );
  } else {
    body = (
      <PendingTable
        items={pending.data.items}
        order={query.order}
        onApprove={(tx) => {
          setRefusal(null);
          setApproving(tx);
        }}
        onComplete={setCompleting}
        onReject={setRejecting}
      />
    );
  }

  return (
    <Card>
      <CardContent className="space-y-4 pt-5">
        <PendingFilters
          query={query}
          onChange={url.set}
          // The order is kept: it is how staff read the queue, not what they narrow it to.
          onClear={() => url.set({ q: '', asset: 'all', type: 'all', approval: 'all' })}
        />
        {url.error ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-danger">
            <span>This link's filters could not be read: {url.error}</span>
            <Button variant="outline" size="sm" onClick={url.reset}>
              Show the whole queue
            </Button>
          </div>
        ) : null}
        {refusal ? (
          <p role="alert" className="text-sm text-danger">
            Not approved: {refusal}
          </p>
        ) : null}
        {body}
        {pending.data ? (
          <QueuePager
            total={pending.data.total}
            noun={['payout waiting', 'payouts waiting']}
            prevCursor={pending.data.prevCursor}
            nextCursor={pending.data.nextCursor}
            waiting={pending.isPlaceholderData}
            stranded={query.cursor !== undefined && pending.data.items.length === 0}
            onPage={(cursor) => url.set({ cursor })}
          />
        ) : null}
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
