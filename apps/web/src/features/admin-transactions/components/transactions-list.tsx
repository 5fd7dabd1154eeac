import { ADMIN_TX_MSG, type TAdminTransactionSummary } from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { useDebounced } from '@web/lib/use-debounced';
import { type ReactNode, useEffect, useState } from 'react';
import { useAdminTransactions } from '../api/get-admin-transactions';
import { DeleteTransactionDialog } from './delete-transaction-dialog';
import { TransactionDetailsDialog } from './transaction-details-dialog';
import { TransactionFormDialog } from './transaction-form-dialog';
import { NO_FILTERS, TransactionsFilters, type TTransactionFilters } from './transactions-filters';
import { TransactionsTable } from './transactions-table';

const PAGE_SIZE = 25;

/** Previous / Next through the list; the server says whether there is more. */
function TransactionsPager({
  page,
  hasMore,
  waiting,
  onPage,
}: {
  page: number;
  hasMore: boolean;
  /** The next page's answer has not come yet. */
  waiting: boolean;
  onPage: (update: (page: number) => number) => void;
}) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={page <= 1}
        onClick={() => onPage((p) => Math.max(1, p - 1))}
      >
        Previous
      </Button>
      <span className="text-sm text-muted">Page {page}</span>
      <Button
        variant="outline"
        size="sm"
        disabled={!hasMore || waiting}
        onClick={() => onPage((p) => p + 1)}
      >
        Next
      </Button>
    </nav>
  );
}

/** The All transactions tab: filters, the list a page at a time, and each row's dialogs. */
export function TransactionsList() {
  const [filters, setFilters] = useState<TTransactionFilters>(NO_FILTERS);
  const { status, type, currency } = filters;
  const [page, setPage] = useState(1);
  const q = useDebounced(filters.search.trim(), 300);
  const list = useAdminTransactions({ q, status, type, currency, page, pageSize: PAGE_SIZE });
  const [viewingId, setViewingId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TAdminTransactionSummary | null>(null);

  // A new search or filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are the trigger
  useEffect(() => setPage(1), [q, status, type, currency]);

  let body: ReactNode;
  if (list.isPending) {
    body = <LoadingState label="Loading transactions" className="py-10" />;
  } else if (list.isError) {
    body = (
      <LoadError
        message={`Could not load transactions: ${list.error.message}`}
        onRetry={() => void list.refetch()}
        className="py-6"
      />
    );
  } else if (list.data.items.length === 0) {
    body = <p className="py-10 text-center text-sm text-muted">{ADMIN_TX_MSG.empty}</p>;
  } else {
    body = (
      <TransactionsTable
        items={list.data.items}
        onView={setViewingId}
        onEdit={setEditingId}
        onDelete={setDeleting}
      />
    );
  }

  return (
    <Card>
      <CardContent className="space-y-4 pt-5">
        <TransactionsFilters
          filters={filters}
          onChange={(change) => setFilters((f) => ({ ...f, ...change }))}
          refreshing={list.isFetching}
          onRefresh={() => void list.refetch()}
        />

        {body}

        {list.data && (page > 1 || list.data.hasMore) ? (
          <TransactionsPager
            page={page}
            hasMore={list.data.hasMore}
            waiting={list.isPlaceholderData}
            onPage={setPage}
          />
        ) : null}
      </CardContent>

      <TransactionDetailsDialog transactionId={viewingId} onOpenChange={() => setViewingId(null)} />
      <TransactionFormDialog
        open={editingId !== null}
        onOpenChange={(open) => (open ? null : setEditingId(null))}
        transactionId={editingId}
      />
      <DeleteTransactionDialog transaction={deleting} onOpenChange={() => setDeleting(null)} />
    </Card>
  );
}
