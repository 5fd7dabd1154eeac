import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { useCan } from '@web/lib/staff';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PendingPayouts } from './pending-payouts';
import { TransactionFormDialog } from './transaction-form-dialog';
import { TransactionsList } from './transactions-list';

type Tab = 'all' | 'pending';

/** /dashboard/admin/transactions with the Pending withdrawals queue (`?view=pending`). */
export default function AdminTransactionsPage() {
  // The tab is in the address (`?view=pending`), with the queue's search, filters and page.
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('view') === 'pending' ? 'pending' : 'all';
  const setTab = (value: Tab) => setParams(value === 'pending' ? { view: value } : {});
  const [adding, setAdding] = useState(false);
  const can = useCan();
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Transaction Management</h1>
          <p className="text-sm text-muted">
            Every change goes through the ledger and is recorded in the audit log.
          </p>
        </div>
        {can('money.propose') ? (
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden />
            Add Transaction
          </Button>
        ) : null}
      </header>

      <div
        role="tablist"
        aria-label="Transactions views"
        className="flex gap-2 border-b border-border"
      >
        {(
          [
            ['all', 'All transactions'],
            ['pending', 'Pending withdrawals'],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="tab"
            id={`tab-${value}`}
            aria-selected={tab === value}
            aria-controls={`panel-${value}`}
            onClick={() => setTab(value)}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary',
              tab === value
                ? 'border-primary text-fg'
                : 'border-transparent text-muted hover:text-fg',
            )}
          >
            {label}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'all' ? <TransactionsList /> : <PendingPayouts />}
      </div>

      <TransactionFormDialog open={adding} onOpenChange={setAdding} transactionId={null} />
    </div>
  );
}
