import type { TAdminKycListQuery } from '@coffer/shared';
import { SELECT_CLASS } from '@web/components/admin/stacked-table';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { useDebounced } from '@web/lib/use-debounced';
import { Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';

const CHOICES = [
  {
    name: 'status',
    label: 'Status',
    options: [
      ['pending', 'Waiting for review'],
      ['approved', 'Approved'],
      ['rejected', 'Rejected'],
      ['all', 'All statuses'],
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
] as const;

/**
 * The queue's search (name or e-mail, once typing pauses) and its status and order, each
 * applied at once; all of them live in the address.
 */
export function KycFilters({
  query,
  onChange,
}: {
  query: TAdminKycListQuery;
  onChange: (change: Partial<TAdminKycListQuery>) => void;
}) {
  const id = useId();
  const [text, setText] = useState(query.q);
  const typed = useDebounced(text.trim(), 300);
  // The address changed (Back): the box shows its search, unless it already does.
  useEffect(() => setText((t) => (t.trim() === query.q ? t : query.q)), [query.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text is the trigger
  useEffect(() => {
    if (typed !== query.q) onChange({ q: typed });
  }, [typed]);

  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))] lg:items-end">
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
            placeholder="Name or e-mail"
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
            {options.map(([v, text]) => (
              <option key={v} value={v}>
                {text}
              </option>
            ))}
          </select>
        </div>
      ))}
    </div>
  );
}
