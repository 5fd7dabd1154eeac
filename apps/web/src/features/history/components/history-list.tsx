import type { TTransaction, TTransactionsResponse } from '@coffer/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Pager } from '@web/components/ui/pager';
import { PageSpinner } from '@web/components/ui/spinner';
import { ApiError, errorMessage } from '@web/lib/api-client';
import { RefreshCw, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isNarrowed, type THistoryView } from '../api/history-view';
import { TransactionRow } from './transaction-row';

type Position = { cursor: string } | { before: string } | null;

/** A message in a card, centred, with what the customer can do about it. */
function Notice({ children, alert }: { children: ReactNode; alert?: boolean }) {
  return (
    <Card>
      <CardContent
        className="flex flex-col items-center gap-3 py-10 text-center"
        {...(alert ? { role: 'alert' } : {})}
      >
        {children}
      </CardContent>
    </Card>
  );
}

/** The page's rows, or why there are none; Previous and Next under them. */
export function HistoryList({
  view,
  transactions,
  goTo,
  clearFilters,
  onCancel,
}: {
  view: THistoryView;
  transactions: UseQueryResult<TTransactionsResponse>;
  goTo: (position: Position) => void;
  clearFilters: () => void;
  onCancel: (tx: TTransaction) => void;
}) {
  const data = transactions.data;
  const paged = Boolean(view.cursor || view.before);
  const firstPage = (
    <Button variant="outline" onClick={() => goTo(null)}>
      Back to the first page
    </Button>
  );

  if (transactions.isPending) return <PageSpinner text="Loading transactions..." />;
  if (!data) {
    const signedOut =
      transactions.error instanceof ApiError && transactions.error.code === 'UNAUTHENTICATED';
    return (
      <Notice alert>
        {signedOut ? (
          <p className="text-fg">Please log in to view your transaction history.</p>
        ) : (
          <>
            <p className="font-semibold text-fg">Error Loading Transactions</p>
            <p className="text-sm text-muted">
              {errorMessage(transactions.error, 'Failed to fetch transactions')}
            </p>
            <div className="flex flex-wrap justify-center gap-2">
              <Button variant="outline" onClick={() => void transactions.refetch()}>
                <RefreshCw className="h-4 w-4" aria-hidden />
                Try Again
              </Button>
              {paged ? firstPage : null}
            </div>
          </>
        )}
      </Notice>
    );
  }
  if (data.items.length === 0) {
    if (isNarrowed(view)) {
      return (
        <Notice>
          <p className="font-semibold text-fg">No matching transactions</p>
          <p className="text-sm text-muted">
            Nothing in your history matches these filters and search.
          </p>
          <Button variant="outline" onClick={clearFilters}>
            <X className="h-4 w-4" aria-hidden />
            Clear filters
          </Button>
        </Notice>
      );
    }
    if (paged) {
      return (
        <Notice>
          <p className="font-semibold text-fg">No transactions on this page</p>
          {firstPage}
        </Notice>
      );
    }
    return (
      <Notice>
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
      </Notice>
    );
  }

  function turn(position: Position) {
    goTo(position);
    window.scrollTo({ top: 0 });
  }

  return (
    <Card>
      <CardContent className="pt-1">
        <ul className="divide-y divide-border" aria-busy={transactions.isPlaceholderData}>
          {data.items.map((tx) => (
            <li key={tx.id}>
              <TransactionRow
                tx={tx}
                action={
                  tx.cancellable ? (
                    <Button
                      variant="outline"
                      size="sm"
                      aria-label={`Cancel ${tx.type === 'bank_transfer' ? 'bank transfer' : 'withdrawal'}`}
                      onClick={() => onCancel(tx)}
                    >
                      Cancel
                    </Button>
                  ) : null
                }
              />
            </li>
          ))}
        </ul>
        {data.prevCursor || data.nextCursor ? (
          <Pager
            canPrevious={Boolean(data.prevCursor) && !transactions.isPlaceholderData}
            canNext={Boolean(data.nextCursor) && !transactions.isPlaceholderData}
            onPrevious={() => data.prevCursor && turn({ before: data.prevCursor })}
            onNext={() => data.nextCursor && turn({ cursor: data.nextCursor })}
          />
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
