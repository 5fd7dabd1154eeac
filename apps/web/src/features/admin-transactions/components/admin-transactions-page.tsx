import { ADMIN_TX_MSG, type TAdminTransactionSummary } from '@coffer/shared';
import { LoadError, LoadingState } from '@web/components/admin/load-states';
import { SELECT_CLASS, STACKED } from '@web/components/admin/stacked-table';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { cn } from '@web/lib/cn';
import { useDebounced } from '@web/lib/use-debounced';
import { Eye, Pencil, Plus, RefreshCw, Search, Trash2 } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useAdminTransactions } from '../api/get-admin-transactions';
import { DeleteTransactionDialog } from './delete-transaction-dialog';
import { PendingPayouts } from './pending-payouts';
import {
  assetText,
  audText,
  cryptoText,
  customerText,
  dateText,
  StatusBadge,
  typeText,
  usdText,
} from './present';
import { TransactionDetailsDialog } from './transaction-details-dialog';
import { TransactionFormDialog } from './transaction-form-dialog';

const PAGE_SIZE = 25;

type Tab = 'all' | 'pending';

/** /dashboard/admin/transactions with the Pending withdrawals queue. */
export default function AdminTransactionsPage() {
  const [tab, setTab] = useState<Tab>('all');
  const [adding, setAdding] = useState(false);
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Transaction Management</h1>
          <p className="text-sm text-muted">
            Every change goes through the ledger and is recorded in the audit log.
          </p>
        </div>
        <Button onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden />
          Add Transaction
        </Button>
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

function TransactionsList() {
  const id = useId();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const [type, setType] = useState('all');
  const [currency, setCurrency] = useState('all');
  const [page, setPage] = useState(1);
  const q = useDebounced(search.trim(), 300);
  const list = useAdminTransactions({ q, status, type, currency, page, pageSize: PAGE_SIZE });
  const [viewingId, setViewingId] = useState<string | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TAdminTransactionSummary | null>(null);

  // A new search or filter starts again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are the trigger
  useEffect(() => setPage(1), [q, status, type, currency]);

  const filter = (
    label: string,
    name: string,
    value: string,
    onChange: (v: string) => void,
    options: readonly (readonly [string, string])[],
  ) => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      <select
        id={`${id}-${name}`}
        className={SELECT_CLASS}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );

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
      // Below 768 px rows stack as cards; above, a narrow window scrolls the table itself.
      <div className="md:overflow-x-auto">
        <table className={STACKED.table}>
          <caption className="sr-only">Transactions, newest first</caption>
          <thead className={STACKED.head}>
            <tr>
              <th className={STACKED.headCell}>Date</th>
              <th className={STACKED.headCell}>User</th>
              <th className={STACKED.headCell}>Type</th>
              <th className={STACKED.headCell}>Asset</th>
              <th className={cn(STACKED.headCell, 'text-right')}>Amount</th>
              <th className={cn(STACKED.headCell, 'text-right')}>USD</th>
              <th className={cn(STACKED.headCell, 'text-right')}>AUD</th>
              <th className={STACKED.headCell}>Status</th>
              <th className={STACKED.headCell}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className={STACKED.body}>
            {list.data.items.map((tx) => (
              <tr key={tx.id} className={STACKED.row}>
                <td data-label="Date" className={STACKED.cell}>
                  {dateText(tx.date)}
                </td>
                <td data-label="User" className={STACKED.cell}>
                  <span className="min-w-0">
                    <span className="block font-medium">{customerText(tx)}</span>
                    <span className="block font-mono text-xs text-muted">{tx.id.slice(0, 8)}</span>
                  </span>
                </td>
                <td data-label="Type" className={STACKED.cell}>
                  {typeText(tx.type)}
                </td>
                <td data-label="Asset" className={STACKED.cell}>
                  {tx.direction === 'none' ? tx.currency : assetText(tx)}
                </td>
                <td data-label="Amount" className={cn(STACKED.cell, 'tabular-nums md:text-right')}>
                  {cryptoText(tx)}
                </td>
                <td data-label="USD" className={cn(STACKED.cell, 'tabular-nums md:text-right')}>
                  {usdText(tx)}
                </td>
                <td data-label="AUD" className={cn(STACKED.cell, 'tabular-nums md:text-right')}>
                  {audText(tx)}
                </td>
                <td data-label="Status" className={STACKED.cell}>
                  <StatusBadge status={tx.status} type={tx.type} />
                </td>
                <td className={STACKED.wideCell}>
                  <div className="flex gap-1 md:justify-end">
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`View transaction ${tx.id.slice(0, 8)}`}
                      onClick={() => setViewingId(tx.id)}
                    >
                      <Eye className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Edit transaction ${tx.id.slice(0, 8)}`}
                      onClick={() => setEditingId(tx.id)}
                    >
                      <Pencil className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={`Delete transaction ${tx.id.slice(0, 8)}`}
                      onClick={() => setDeleting(tx)}
                    >
                      <Trash2 className="h-4 w-4 text-danger" aria-hidden />
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <Card>
      <CardContent className="space-y-4 pt-5">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto] lg:items-end">
          <div className="space-y-1.5 sm:col-span-2 lg:col-span-1">
            <Label htmlFor={`${id}-search`}>Search</Label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
                aria-hidden
              />
              <Input
                id={`${id}-search`}
                type="search"
                className="pl-9"
                placeholder="Name, username, e-mail, asset or transaction id"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
          </div>
          {filter('Status', 'status', status, setStatus, [
            ['all', 'All statuses'],
            ['pending', 'Pending'],
            ['completed', 'Completed'],
            ['failed', 'Failed or rejected'],
          ])}
          {filter('Type', 'type', type, setType, [
            ['all', 'All types'],
            ['deposit', 'Deposit'],
            ['withdrawal', 'Withdrawal'],
            ['buy', 'Buy'],
            ['sell', 'Sell'],
            ['bank_transfer', 'Bank transfer'],
          ])}
          {filter('Currency', 'currency', currency, setCurrency, [
            ['all', 'All currencies'],
            ['USD', 'USD'],
            ['AUD', 'AUD'],
          ])}
          <Button
            variant="outline"
            onClick={() => void list.refetch()}
            disabled={list.isFetching}
            aria-label="Refresh transactions"
          >
            <RefreshCw
              className={cn(
                'h-4 w-4',
                list.isFetching && 'animate-spin motion-reduce:animate-none',
              )}
              aria-hidden
            />
          </Button>
        </div>

        {body}

        {list.data && (page > 1 || list.data.hasMore) ? (
          <nav aria-label="Pages" className="flex items-center justify-between gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={page <= 1}
              onClick={() => setPage((p) => Math.max(1, p - 1))}
            >
              Previous
            </Button>
            <span className="text-sm text-muted">Page {page}</span>
            <Button
              variant="outline"
              size="sm"
              disabled={!list.data.hasMore || list.isPlaceholderData}
              onClick={() => setPage((p) => p + 1)}
            >
              Next
            </Button>
          </nav>
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
