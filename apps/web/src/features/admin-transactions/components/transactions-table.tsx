import type { TAdminTransactionSummary } from '@coffer/shared';
import { STACKED } from '@web/components/admin/stacked-table';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/lib/cn';
import { useCan } from '@web/lib/staff';
import { Eye, Pencil, Trash2 } from 'lucide-react';
import {
  assetText,
  audText,
  CustomerName,
  cryptoText,
  dateText,
  StatusBadge,
  typeText,
  usdText,
} from './present';

type RowActions = {
  onView: (id: string) => void;
  onEdit: (id: string) => void;
  onDelete: (tx: TAdminTransactionSummary) => void;
};

/** An amount and its symbol stay on one line ('1.375982 ETH'), right-aligned from 768 px. */
const AMOUNT_CELL = 'tabular-nums whitespace-nowrap md:text-right';

/** One transaction: its figures, and View, Edit and Delete. */
function TransactionRow({
  tx,
  onView,
  onEdit,
  onDelete,
}: RowActions & { tx: TAdminTransactionSummary }) {
  const short = tx.id.slice(0, 8);
  // Corrections are a treasurer's proposals; other roles only view.
  const mayPropose = useCan()('money.propose');
  return (
    <tr className={STACKED.row}>
      <td data-label="Date" className={STACKED.cell}>
        {dateText(tx.date)}
      </td>
      <td data-label="User" className={STACKED.cell}>
        <span className="min-w-0">
          <CustomerName tx={tx} className="block font-medium" />
          <span className="block font-mono text-xs text-muted">{short}</span>
        </span>
      </td>
      <td data-label="Type" className={STACKED.cell}>
        {typeText(tx.type)}
      </td>
      <td data-label="Asset" className={STACKED.cell}>
        {tx.direction === 'none' ? tx.currency : assetText(tx)}
      </td>
      <td data-label="Amount" className={cn(STACKED.cell, AMOUNT_CELL)}>
        {cryptoText(tx)}
      </td>
      <td data-label="USD" className={cn(STACKED.cell, AMOUNT_CELL)}>
        {usdText(tx)}
      </td>
      <td data-label="AUD" className={cn(STACKED.cell, AMOUNT_CELL)}>
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
            aria-label={`View transaction ${short}`}
            onClick={() => onView(tx.id)}
          >
            <Eye className="h-4 w-4" aria-hidden />
          </Button>
          {mayPropose ? (
            <>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Edit transaction ${short}`}
                onClick={() => onEdit(tx.id)}
              >
                <Pencil className="h-4 w-4" aria-hidden />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Delete transaction ${short}`}
                onClick={() => onDelete(tx)}
              >
                <Trash2 className="h-4 w-4 text-danger" aria-hidden />
              </Button>
            </>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/** The page of transactions, newest first. */
export function TransactionsTable({
  items,
  ...actions
}: RowActions & { items: readonly TAdminTransactionSummary[] }) {
  return (
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
          {items.map((tx) => (
            <TransactionRow key={tx.id} tx={tx} {...actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
