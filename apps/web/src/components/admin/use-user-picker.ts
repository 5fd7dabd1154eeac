import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebounced } from '@web/lib/use-debounced';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { type PickedUser, userDirectoryQueryOptions, userDisplayName } from './user-directory';

/**
 * The picker's state: what is typed, whether the list is open and which option the arrows
 * are on, the directory's answer for the text, and the keys of a WAI-ARIA combobox.
 */
export function useUserPicker(
  value: PickedUser | null,
  onChange: (user: PickedUser | null) => void,
) {
  const [text, setText] = useState(value ? userDisplayName(value) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

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

  function type(typed: string) {
    setText(typed);
    setActive(0);
    setOpen(true);
    if (value) onChange(null);
  }

  function clear() {
    onChange(null);
    setText('');
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

  return {
    text,
    open,
    setOpen,
    active,
    setActive,
    directory,
    users,
    activeUser: open ? users[active] : undefined,
    pick,
    type,
    clear,
    onKeyDown,
  };
}
