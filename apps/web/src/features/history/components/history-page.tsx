import type { TTransaction } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { Download, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useExportTransactions } from '../api/export-transactions';
import { useTransactions } from '../api/get-transactions';
import { CancelPayoutDialog } from './cancel-payout-dialog';
import { HistoryFilters } from './history-filters';
import { HistoryList } from './history-list';
import { useHistoryView } from './use-history-view';

/**
 * /dashboard/history: the customer's transactions, filtered, searched and sorted on the
 * server, a page at a time, all of it kept in the URL; Cancel on a payout nobody has taken.
 */
export default function HistoryPage() {
  const { view, change, goTo } = useHistoryView();
  const transactions = useTransactions(view);
  const exporter = useExportTransactions();
  const [cancelling, setCancelling] = useState<TTransaction | null>(null);
  const total = transactions.data?.total ?? 0;
  const refreshing = transactions.isFetching && !transactions.isPlaceholderData;

  function onExport() {
    exporter.mutate(view, {
      onError: (err) => {
        console.error('Exporting the transactions failed', err);
        toast.error('Export failed', {
          description: errorMessage(err, 'Failed to export transactions'),
        });
      },
    });
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
      <Card>
        <CardContent className="pt-5">
          <HistoryFilters view={view} change={change} />
        </CardContent>
      </Card>
      <HistoryList
        view={view}
        transactions={transactions}
        goTo={goTo}
        clearFilters={() => change({ type: undefined, asset: undefined, status: undefined, q: '' })}
        onCancel={setCancelling}
      />
      <CancelPayoutDialog transaction={cancelling} onClose={() => setCancelling(null)} />
    </div>
  );
}
