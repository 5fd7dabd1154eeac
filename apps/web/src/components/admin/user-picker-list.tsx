import { cn } from '@web/lib/cn';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { CustomerText } from '../ui/customer-text';
import { type PickedUser, userDisplayName, userEmailBesideName } from './user-directory';

/** The id of a user's option in the list, for the combobox's aria-activedescendant. */
export function optionId(pickerId: string, user: PickedUser): string {
  return `${pickerId}-opt-${user.id}`;
}

/** The picker's popup: the users found, or why there are none. */
export function UserPickerList({
  pickerId,
  listId,
  label,
  users,
  value,
  active,
  failed,
  searching,
  onActive,
  onPick,
}: {
  pickerId: string;
  listId: string;
  label: string;
  users: readonly PickedUser[];
  value: PickedUser | null;
  /** The index of the option the arrows are on. */
  active: number;
  failed: boolean;
  /** No answer yet for this search. */
  searching: boolean;
  onActive: (index: number) => void;
  onPick: (user: PickedUser) => void;
}) {
  let options: ReactNode;
  if (failed) {
    options = <div className="px-3 py-2 text-sm text-danger">Failed to fetch users</div>;
  } else if (users.length === 0) {
    options = (
      <div className="px-3 py-2 text-sm text-muted">
        {searching ? 'Searching…' : 'No users found'}
      </div>
    );
  } else {
    options = users.map((u, i) => {
      const selected = value?.id === u.id;
      const name = userDisplayName(u);
      return (
        // Keyboard use goes through the combobox input (aria-activedescendant).
        // biome-ignore lint/a11y/useKeyWithClickEvents: the input handles the keys
        <div
          key={u.id}
          id={optionId(pickerId, u)}
          role="option"
          tabIndex={-1}
          aria-selected={selected}
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => onActive(i)}
          onClick={() => onPick(u)}
          className={cn(
            'flex cursor-pointer items-center gap-2 px-3 py-2 text-sm',
            i === active ? 'bg-surface-2 text-fg' : 'text-fg',
          )}
        >
          <Check
            className={cn('size-4 shrink-0', selected ? 'opacity-100' : 'opacity-0')}
            aria-hidden
          />
          <span className="min-w-0">
            <CustomerText text={name} truncate className="font-medium" />
            {userEmailBesideName(u) ? (
              <CustomerText text={u.email} truncate className="text-xs text-muted" />
            ) : null}
          </span>
        </div>
      );
    });
  }
  return (
    <div
      id={listId}
      role="listbox"
      aria-label={label}
      className="absolute top-full z-50 mt-1 max-h-64 w-full overflow-auto rounded-md border border-border bg-surface py-1 shadow-lg"
    >
      {options}
    </div>
  );
}
