import type { TAdminDirectoryUser, TAdminUserDirectory } from '@coffer/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { adminKeys } from '@web/lib/query-keys';
import { useDebounced } from '@web/lib/use-debounced';
import { Check, ChevronsUpDown, X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';

export type PickedUser = TAdminDirectoryUser;

export function getUserDirectory(q: string, signal?: AbortSignal): Promise<TAdminUserDirectory> {
  const params = new URLSearchParams({ q, limit: '20' });
  return api.get<TAdminUserDirectory>(`/api/admin/user-directory?${params}`, signal);
}

export const userDirectoryQueryOptions = (q: string) =>
  queryOptions({
    queryKey: adminKeys.userDirectory(q),
    queryFn: ({ signal }) => getUserDirectory(q, signal),
    staleTime: 30_000,
  });

/** The name an admin knows a customer by: full name, else username, else e-mail. */
export function userDisplayName(u: Pick<PickedUser, 'email' | 'fullName' | 'username'>): string {
  return u.fullName?.trim() || u.username?.trim() || u.email;
}

type Props = {
  value: PickedUser | null;
  onChange: (user: PickedUser | null) => void;
  label: string;
  placeholder?: string;
  /** Hides the visible label (it stays for screen readers). */
  hideLabel?: boolean;
  disabled?: boolean;
  className?: string;
};

/**
 * A searchable customer picker (WAI-ARIA combobox with a listbox popup): type a name,
 * username or e-mail; arrows move, Enter picks, Escape closes. Searches the server's user
 * directory, debounced.
 */
export function UserPicker({
  value,
  onChange,
  label,
  placeholder = 'Search by name, username or e-mail',
  hideLabel = false,
  disabled = false,
  className,
}: Props) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const [text, setText] = useState(value ? userDisplayName(value) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);

  // A value set from outside (a preselected user, a form reset) shows in the box.
  useEffect(() => {
    setText(value ? userDisplayName(value) : '');
  }, [value]);

  const query = value && text === userDisplayName(value) ? '' : text.trim();
  const debounced = useDebounced(query, 250);
  const directory = useQuery({
    ...userDirectoryQueryOptions(debounced),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const users = directory.data?.users ?? [];

  function pick(user: PickedUser) {
    onChange(user);
    setText(userDisplayName(user));
    setOpen(false);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(i + 1, Math.max(users.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      const user = users[active];
      if (open && user) {
        e.preventDefault();
        pick(user);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
      }
    }
  }

  const activeId = open && users[active] ? `${id}-opt-${users[active].id}` : undefined;

  return (
    <div className={cn('relative flex flex-col gap-1.5', className)}>
      <Label htmlFor={inputId} className={hideLabel ? 'sr-only' : undefined}>
        {label}
      </Label>
      <div className="relative">
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          autoComplete="off"
          disabled={disabled}
          placeholder={placeholder}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setOpen(true);
            if (value) onChange(null);
          }}
          // Opened by a click or by typing, not by focus: a dialog focuses this field as it
          // opens, and a list opened then would cover the dialog's own buttons.
          onClick={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className={cn(
            'h-10 w-full rounded-md border border-border bg-surface pl-3 pr-16 text-sm text-fg',
            'placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-1',
            'focus-visible:outline-primary disabled:opacity-60',
          )}
        />
        <div className="absolute inset-y-0 right-2 flex items-center gap-1 text-muted">
          {directory.isFetching && open ? <Spinner className="size-4" /> : null}
          {value && !disabled ? (
            <button
              type="button"
              aria-label="Clear selected user"
              className="rounded p-0.5 hover:text-fg focus-visible:outline-2 focus-visible:outline-primary"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                onChange(null);
                setText('');
                inputRef.current?.focus();
              }}
            >
              <X className="size-4" aria-hidden />
            </button>
          ) : (
            <ChevronsUpDown className="size-4" aria-hidden />
          )}
        </div>
      </div>
      {open ? (
        <div
          id={listId}
          role="listbox"
          aria-label={label}
          className="absolute top-full z-50 mt-1 max-h-64 w-full overflow-auto rounded-md border border-border bg-surface py-1 shadow-lg"
        >
          {directory.isError ? (
            <div className="px-3 py-2 text-sm text-danger">Failed to fetch users</div>
          ) : users.length === 0 ? (
            <div className="px-3 py-2 text-sm text-muted">
              {directory.isPending ? 'Searching…' : 'No users found'}
            </div>
          ) : (
            users.map((u, i) => {
              const selected = value?.id === u.id;
              const name = userDisplayName(u);
              return (
                // Keyboard use goes through the combobox input (aria-activedescendant).
                // biome-ignore lint/a11y/useKeyWithClickEvents: the input handles the keys
                <div
                  key={u.id}
                  id={`${id}-opt-${u.id}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={selected}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => pick(u)}
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
                    <span className="block truncate font-medium">{name}</span>
                    {name !== u.email ? (
                      <span className="block truncate text-xs text-muted">{u.email}</span>
                    ) : null}
                  </span>
                </div>
              );
            })
          )}
        </div>
      ) : null}
    </div>
  );
}
