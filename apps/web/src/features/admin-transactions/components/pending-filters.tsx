import { ALL_ASSET_IDS, ASSETS, type TPendingPayoutsQuery } from '@coffer/shared';
import { SearchField } from '@web/components/admin/search-field';
import { Button } from '@web/components/ui/button';
import { SelectField } from '@web/components/ui/select';
import { X } from 'lucide-react';
import { useId } from 'react';

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
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end">
      <SearchField
        className="col-span-2 lg:col-span-1"
        value={query.q}
        onSearch={(q) => onChange({ q })}
        placeholder="E-mail, address or amount"
      />
      {CHOICES.map(({ name, label, options }) => (
        <SelectField
          key={name}
          id={`${id}-${name}`}
          label={label}
          value={query[name]}
          options={options}
          onChange={(value) => onChange({ [name]: value })}
        />
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
