import { cn } from '@web/lib/cn';
import { ChevronsUpDown, X } from 'lucide-react';
import { useId, useRef } from 'react';
import { Label } from '../ui/label';
import { Spinner } from '../ui/spinner';
import { useUserPicker } from './use-user-picker';
import type { PickedUser } from './user-directory';
import { optionId, UserPickerList } from './user-picker-list';

export {
  getUserDirectory,
  type PickedUser,
  userDirectoryQueryOptions,
  userDisplayName,
  userEmailBesideName,
  userNameWithEmail,
} from './user-directory';

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
  const picker = useUserPicker(value, onChange);
  const inputRef = useRef<HTMLInputElement>(null);

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
          aria-expanded={picker.open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={picker.activeUser ? optionId(id, picker.activeUser) : undefined}
          autoComplete="off"
          disabled={disabled}
          placeholder={placeholder}
          value={picker.text}
          onChange={(e) => picker.type(e.target.value)}
          // Opened by a click or by typing, not by focus: a dialog focuses this field as it
          // opens, and a list opened then would cover the dialog's own buttons.
          onClick={() => picker.setOpen(true)}
          onBlur={() => picker.setOpen(false)}
          onKeyDown={picker.onKeyDown}
          className={cn(
            'h-10 w-full rounded-md border border-border bg-surface pl-3 pr-16 text-sm text-fg',
            'placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-1',
            'focus-visible:outline-primary disabled:opacity-60',
          )}
        />
        <div className="absolute inset-y-0 right-2 flex items-center gap-1 text-muted">
          {picker.directory.isFetching && picker.open ? <Spinner className="size-4" /> : null}
          {value && !disabled ? (
            <button
              type="button"
              aria-label="Clear selected user"
              className="rounded p-0.5 hover:text-fg focus-visible:outline-2 focus-visible:outline-primary"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                picker.clear();
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
      {picker.open ? (
        <UserPickerList
          pickerId={id}
          listId={listId}
          label={label}
          users={picker.users}
          value={value}
          active={picker.active}
          failed={picker.directory.isError}
          searching={picker.directory.isPending}
          onActive={picker.setActive}
          onPick={picker.pick}
        />
      ) : null}
    </div>
  );
}
