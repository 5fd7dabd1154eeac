import { DAY_RANGE_BACKWARDS, dayRangeInOrder } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { SELECT_CLASS } from '@web/components/ui/select';
import { cn } from '@web/lib/cn';
import { RefreshCw, Search } from 'lucide-react';
import { useId } from 'react';

/** What the list is narrowed to, as chosen: each change applies at once (the search once typing pauses). */
export type TTransactionFilters = {
  search: string;
  status: string;
  type: string;
  currency: string;
  /** UTC calendar days, YYYY-MM-DD, or '' for an open end. */
  from: string;
  to: string;
};

export const NO_FILTERS: TTransactionFilters = {
  search: '',
  status: 'all',
  type: 'all',
  currency: 'all',
  from: '',
  to: '',
};

/** The message when the day range runs backwards, or null. */
export function rangeProblem(f: Pick<TTransactionFilters, 'from' | 'to'>): string | null {
  return dayRangeInOrder(f) ? null : DAY_RANGE_BACKWARDS;
}

type Choice = 'status' | 'type' | 'currency';

const CHOICES: readonly {
  name: Choice;
  label: string;
  options: readonly (readonly [string, string])[];
}[] = [
  {
    name: 'status',
    label: 'Status',
    options: [
      ['all', 'All statuses'],
      ['pending', 'Pending'],
      ['completed', 'Completed'],
      ['failed', 'Failed or rejected'],
    ],
  },
  {
    name: 'type',
    label: 'Type',
    options: [
      ['all', 'All types'],
      ['deposit', 'Deposit'],
      ['withdrawal', 'Withdrawal'],
      ['buy', 'Buy'],
      ['sell', 'Sell'],
      ['bank_transfer', 'Bank transfer'],
    ],
  },
  {
    name: 'currency',
    label: 'Currency',
    options: [
      ['all', 'All currencies'],
      ['USD', 'USD'],
      ['AUD', 'AUD'],
    ],
  },
];

/** From and To, as UTC calendar days; a range that runs backwards is told under them. */
export function DayRange({
  filters,
  onChange,
}: {
  filters: TTransactionFilters;
  onChange: (change: Partial<TTransactionFilters>) => void;
}) {
  const id = useId();
  const problem = rangeProblem(filters);
  return (
    <fieldset className="grid w-full grid-cols-2 gap-3 sm:max-w-md">
      <legend className="sr-only">Dates</legend>
      {(['from', 'to'] as const).map((end) => (
        <div key={end} className="space-y-1.5">
          <Label htmlFor={`${id}-${end}`}>{end === 'from' ? 'From (UTC)' : 'To (UTC)'}</Label>
          <Input
            id={`${id}-${end}`}
            type="date"
            value={filters[end]}
            aria-invalid={problem !== null}
            aria-describedby={`${id}-range-note`}
            onChange={(e) => onChange({ [end]: e.target.value })}
          />
        </div>
      ))}
      <p
        id={`${id}-range-note`}
        role={problem ? 'alert' : undefined}
        className={cn('col-span-2 text-xs', problem ? 'text-danger' : 'text-muted')}
      >
        {problem ?? 'Whole calendar days in UTC, both included.'}
      </p>
    </fieldset>
  );
}

/** The search box, the three choices and the refresh button above the list. */
export function TransactionsFilters({
  filters,
  onChange,
  refreshing,
  onRefresh,
}: {
  filters: TTransactionFilters;
  /** Takes the one filter that changed. */
  onChange: (change: Partial<TTransactionFilters>) => void;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const id = useId();
  return (
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
            value={filters.search}
            onChange={(e) => onChange({ search: e.target.value })}
          />
        </div>
      </div>
      {CHOICES.map(({ name, label, options }) => (
        <div key={name} className="space-y-1.5">
          <Label htmlFor={`${id}-${name}`}>{label}</Label>
          <select
            id={`${id}-${name}`}
            className={SELECT_CLASS}
            value={filters[name]}
            onChange={(e) => onChange({ [name]: e.target.value })}
          >
            {options.map(([v, text]) => (
              <option key={v} value={v}>
                {text}
              </option>
            ))}
          </select>
        </div>
      ))}
      <Button
        variant="outline"
        onClick={onRefresh}
        disabled={refreshing}
        aria-label="Refresh transactions"
      >
        <RefreshCw
          className={cn('h-4 w-4', refreshing && 'animate-spin motion-reduce:animate-none')}
          aria-hidden
        />
      </Button>
    </div>
  );
}
