import { ADMIN_TX_MSG, type TAdminTransactionSummary } from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Pager } from '@web/components/ui/pager';
import { errorMessage } from '@web/lib/api-client';
import { useDebounced } from '@web/lib/use-debounced';
import { Download } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useExportAdminTransactions } from '../api/export-admin-transactions';
import { useAdminTransactions } from '../api/get-admin-transactions';
import { DeleteTransactionDialog } from './delete-transaction-dialog';
import { TransactionDetailsDialog } from './transaction-details-dialog';
import { TransactionFormDialog } from './transaction-form-dialog';
import {
  DayRange,
  NO_FILTERS,
  rangeProblem,
  TransactionsFilters,
  type TTransactionFilters,
} from './transactions-filters';
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
    <Pager
      status={`Page ${page}`}
      canPrevious={page > 1}
      canNext={hasMore && !waiting}
      onPrevious={() => onPage((p) => Math.max(1, p - 1))}
      onNext={() => onPage((p) => p + 1)}
    />
  );
}

/** The All transactions tab: filters, the list a page at a time, and each row's dialogs. */
export function TransactionsList() {
  const [filters, setFilters] = useState<TTransactionFilters>(NO_FILTERS);
  const { status, type, currency, from, to } = filters;
  const [page, setPage] = useState(1);
  const q = useDebounced(filters.search.trim(), 300);
  const problem = rangeProblem(filters);
  const shown = { q, status, type, currency, from, to };
  const list = useAdminTransactions({ ...shown, page, pageSize: PAGE_SIZE }, problem === null);
  const exporter = useExportAdminTransactions();
  const [viewingId, setViewingId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TAdminTransactionSummary | null>(null);

  // A new search or filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are the trigger
  useEffect(() => setPage(1), [q, status, type, currency, from, to]);

  function onExport() {
    exporter.mutate(shown, {
      onError: (err) =>
        toast.error('Export failed', {
          description: errorMessage(err, 'Failed to export the transactions'),
        }),
    });
  }

  let body: ReactNode;
  if (problem) {
    body = (
      <p className="py-10 text-center text-sm text-muted">Choose a day range that runs forwards.</p>
    );
  } else if (list.isPending) {
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

        <div className="flex flex-wrap items-end justify-between gap-3">
          <DayRange
            filters={filters}
            onChange={(change) => setFilters((f) => ({ ...f, ...change }))}
          />
          <Button
            variant="outline"
            size="sm"
            onClick={onExport}
            disabled={exporter.isPending || problem !== null}
          >
            <Download className="h-4 w-4" aria-hidden />
            {exporter.isPending ? 'Exporting...' : 'Export CSV'}
          </Button>
        </div>

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
