import {
  CUSTOMER_ASSETS,
  HISTORY_ASSETS,
  type TTransaction,
  ZTransactionStatus,
  ZTransactionType,
} from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SelectField } from '@web/components/ui/select';
import { cn } from '@web/lib/cn';
import { useDebounced } from '@web/lib/use-debounced';
import { Search, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { isNarrowed, type THistoryView } from '../api/history-view';
import { TYPE_LABELS } from './transaction-row';

const STATUS_LABELS: Record<TTransaction['status'], string> = {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed, rejected or cancelled',
};

/** The sort and its direction as one choice, as a wallet offers them. */
const SORTS = [
  { sort: 'date', order: 'desc', label: 'Newest first' },
  { sort: 'date', order: 'asc', label: 'Oldest first' },
  { sort: 'amount', order: 'desc', label: 'Highest amount' },
  { sort: 'amount', order: 'asc', label: 'Lowest amount' },
] as const;

type Change = (next: Partial<Omit<THistoryView, 'cursor' | 'before'>>) => void;

/**
 * The search box applies once typing pauses (or at Enter). A change of the URL that did
 * not come from it (Clear filters, Back) is copied into the box.
 */
function useSearchText(q: string, change: Change) {
  const [text, setText] = useState(q);
  const settled = useDebounced(text, 300);
  const applied = useRef(q);
  useEffect(() => {
    if (settled === applied.current) return;
    applied.current = settled;
    change({ q: settled });
  }, [settled, change]);
  useEffect(() => {
    if (q === applied.current) return;
    applied.current = q;
    setText(q);
  }, [q]);
  function applyNow() {
    applied.current = text;
    change({ q: text });
  }
  return { text, setText, applyNow };
}

/** The filters, search and sort above the list: each applies as it changes. */
export function HistoryFilters({ view, change }: { view: THistoryView; change: Change }) {
  const id = useId();
  const search = useSearchText(view.q, change);
  const narrowed = isNarrowed(view);

  function clear() {
    search.setText('');
    change({ type: undefined, asset: undefined, status: undefined, q: '' });
  }

  return (
    <form
      aria-label="Filter transactions"
      className="grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))]"
      onSubmit={(e) => {
        e.preventDefault();
        search.applyNow();
      }}
    >
      <div className="col-span-2 space-y-1.5 lg:col-span-1">
        <Label htmlFor={`${id}-q`}>Search</Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <Input
            id={`${id}-q`}
            type="search"
            className="pl-9"
            placeholder="Transaction hash, address or amount"
            maxLength={100}
            value={search.text}
            onChange={(e) => search.setText(e.target.value)}
          />
        </div>
      </div>
      <SelectField
        id={`${id}-type`}
        label="Type"
        value={view.type ?? ''}
        options={[
          ['', 'All types'],
          ...Object.entries(TYPE_LABELS).map(([value, text]) => [value, text] as const),
        ]}
        onChange={(v) => change({ type: ZTransactionType.safeParse(v).data })}
      />
      <SelectField
        id={`${id}-asset`}
        label="Asset"
        value={view.asset ?? ''}
        options={[
          ['', 'All assets'],
          ...CUSTOMER_ASSETS.map((a) => [a.id, `${a.symbol} (${a.name})`] as const),
        ]}
        onChange={(v) => change({ asset: HISTORY_ASSETS.find((a) => a === v) })}
      />
      <SelectField
        id={`${id}-status`}
        label="Status"
        value={view.status ?? ''}
        options={[
          ['', 'All statuses'],
          ...ZTransactionStatus.options.map((s) => [s, STATUS_LABELS[s]] as const),
        ]}
        onChange={(v) => change({ status: ZTransactionStatus.safeParse(v).data })}
      />
      <SelectField
        id={`${id}-sort`}
        label="Sort"
        value={`${view.sort}-${view.order}`}
        options={SORTS.map((s) => [`${s.sort}-${s.order}`, s.label] as const)}
        onChange={(v) => {
          const chosen = SORTS.find((s) => `${s.sort}-${s.order}` === v);
          if (chosen) change({ sort: chosen.sort, order: chosen.order });
        }}
      />
      <div className={cn('col-span-2 lg:col-span-5', !narrowed && 'hidden')}>
        <Button type="button" variant="ghost" size="sm" onClick={clear}>
          <X className="h-4 w-4" aria-hidden />
          Clear filters
        </Button>
      </div>
    </form>
  );
}
