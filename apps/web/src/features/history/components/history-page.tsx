import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { PageSpinner, Spinner } from '@web/components/ui/spinner';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { Download, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useExportTransactions } from '../api/export-transactions';
import { useTransactions } from '../api/get-transactions';
import { TransactionRow } from './transaction-row';

/** /dashboard/history: every transaction of the customer, newest first. */
export default function HistoryPage() {
  const transactions = useTransactions();
  const exporter = useExportTransactions();
  const pages = transactions.data?.pages ?? [];
  const items = pages.flatMap((page) => page.items);
  const total = pages[0]?.total ?? 0;
  const refreshing = transactions.isFetching && !transactions.isFetchingNextPage;

  function onExport() {
    exporter.mutate(undefined, {
      onError: (err) => {
        console.error('Exporting the transactions failed', err);
        toast.error('Export failed', {
          description: errorMessage(err, 'Failed to export transactions'),
        });
      },
    });
  }

  let body: ReactNode;
  if (transactions.isPending) {
    body = <PageSpinner text="Loading transactions..." />;
  } else if (transactions.isError && items.length === 0) {
    const signedOut =
      transactions.error instanceof ApiError && transactions.error.code === 'UNAUTHENTICATED';
    body = (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-10 text-center" role="alert">
          {signedOut ? (
            <p className="text-fg">Please log in to view your transaction history.</p>
          ) : (
            <>
              <p className="font-semibold text-fg">Error Loading Transactions</p>
              <p className="text-sm text-muted">
                {errorMessage(transactions.error, 'Failed to fetch transactions')}
              </p>
              <Button variant="outline" onClick={() => void transactions.refetch()}>
                <RefreshCw className="h-4 w-4" aria-hidden />
                Try Again
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    );
  } else if (items.length === 0) {
    body = (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
          <p className="font-semibold text-fg">No Transactions Yet</p>
          <p className="text-sm text-muted">Deposits, withdrawals and rewards will appear here.</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link to="/dashboard/deposit">Make a Deposit</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/dashboard/withdraw">Make a Withdrawal</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  } else {
    body = (
      <Card>
        <CardContent className="pt-1">
          <ul className="divide-y divide-border">
            {items.map((tx) => (
              <li key={tx.id}>
                <TransactionRow tx={tx} />
              </li>
            ))}
          </ul>
          {transactions.hasNextPage ? (
            <div className="flex justify-center pt-2">
              <Button
                variant="outline"
                onClick={() => void transactions.fetchNextPage()}
                disabled={transactions.isFetchingNextPage}
              >
                {transactions.isFetchingNextPage ? <Spinner label="Loading more" /> : null}
                {transactions.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            </div>
          ) : null}
          {transactions.isError ? (
            <p role="alert" className="pt-2 text-center text-sm text-danger">
              {errorMessage(transactions.error, 'Failed to fetch transactions')}
            </p>
          ) : null}
        </CardContent>
      </Card>
    );
  }

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-fg">Transaction History</h1>
          <p className="text-muted" aria-live="polite">
            {transactions.data ? `${total} Transaction(s)` : '\u00a0'}
          </p>
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            onClick={() => void transactions.refetch()}
            disabled={refreshing}
            aria-busy={refreshing}
          >
            <RefreshCw className={cn('h-4 w-4', refreshing && 'animate-spin')} aria-hidden />
            Refresh
          </Button>
          <Button variant="outline" onClick={onExport} disabled={exporter.isPending || total === 0}>
            <Download className="h-4 w-4" aria-hidden />
            {exporter.isPending ? 'Exporting...' : 'Export'}
          </Button>
        </div>
      </header>
      {body}
    </div>
  );
}
