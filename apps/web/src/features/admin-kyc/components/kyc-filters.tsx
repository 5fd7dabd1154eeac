import type { TAdminKycListQuery } from '@coffer/shared';
import { SearchField } from '@web/components/admin/search-field';
import { SelectField } from '@web/components/ui/select';
import { useId } from 'react';

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
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))] lg:items-end">
      <SearchField
        className="sm:col-span-2 lg:col-span-1"
        value={query.q}
        onSearch={(q) => onChange({ q })}
        placeholder="Name or e-mail"
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
    </div>
  );
}
