import { ALL_ASSET_IDS, ASSETS, type TPendingPayoutsQuery } from '@coffer/shared';
import { SELECT_CLASS } from '@web/components/admin/stacked-table';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { useDebounced } from '@web/lib/use-debounced';
import { Search, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';

type Choice = 'asset' | 'type' | 'approval' | 'order';

const CHOICES: readonly {
  name: Choice;
  label: string;
  options: readonly (readonly [string, string])[];
}[] = [
  {
    name: 'asset',
    label: 'Asset',
    options: [['all', 'All assets'], ...ALL_ASSET_IDS.map((id) => [id, ASSETS[id].label] as const)],
  },
  {
    name: 'type',
    label: 'Type',
    options: [
      ['all', 'All payouts'],
      ['withdrawal', 'Crypto withdrawal'],
      ['bank_transfer', 'Bank payout'],
    ],
  },
  {
    name: 'approval',
    label: 'Approval',
    options: [
      ['all', 'Any'],
      ['waiting', 'Waiting for approval'],
      ['approved', 'Approved'],
    ],
  },
  {
    name: 'order',
    label: 'Order',
    options: [
      ['oldest', 'Oldest first'],
      ['newest', 'Newest first'],
    ],
  },
];

/** True when the queue is narrowed by anything (the order is not a filter). */
export function pendingFiltered(q: TPendingPayoutsQuery): boolean {
  return q.q !== '' || q.asset !== 'all' || q.type !== 'all' || q.approval !== 'all';
}

/**
 * The queue's search and filters. Each choice applies at once, the search once typing
 * pauses; all of them live in the address, so a link shows the same queue.
 */
export function PendingFilters({
  query,
  onChange,
  onClear,
}: {
  query: TPendingPayoutsQuery;
  onChange: (change: Partial<TPendingPayoutsQuery>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(query.q);
  const typed = useDebounced(text.trim(), 300);
  // The address changed (Back, Clear): the box shows its search, unless it already does
  // (a trailing space being typed stays).
  useEffect(() => setText((t) => (t.trim() === query.q ? t : query.q)), [query.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text is the trigger
  useEffect(() => {
    if (typed !== query.q) onChange({ q: typed });
  }, [typed]);

  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end">
      <div className="col-span-2 space-y-1.5 lg:col-span-1">
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
            placeholder="E-mail, address or amount"
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
      </div>
      {CHOICES.map(({ name, label, options }) => (
        <div key={name} className="space-y-1.5">
          <Label htmlFor={`${id}-${name}`}>{label}</Label>
          <select
            id={`${id}-${name}`}
            className={SELECT_CLASS}
            value={query[name]}
            onChange={(e) => onChange({ [name]: e.target.value })}
          >
            {options.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <Button
        variant="ghost"
        className="col-span-2 lg:col-span-1"
        onClick={onClear}
        disabled={!pendingFiltered(query)}
      >
        <X className="h-4 w-4" aria-hidden />
        Clear
      </Button>
    </div>
  );
}
