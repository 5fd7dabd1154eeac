import * as Menu from '@radix-ui/react-dropdown-menu';
import { cn } from '@web/lib/cn';
import { MoreHorizontal } from 'lucide-react';
import { Button } from './button';

export type RowMenuItem = {
  label: string;
  onSelect: () => void;
  /** An action that takes something away (turning off 2FA): told apart by colour. */
  danger?: boolean;
  disabled?: boolean;
};

/**
 * A row's actions behind one button (a WAI-ARIA menu: arrows move, Enter picks, Escape
 * closes), so a table row or a phone card stays narrow. `label` names the row ("Actions for
 * ada@example.com"); each item usually opens a dialog that asks for confirmation.
 */
export function RowMenu({ label, items }: { label: string; items: readonly RowMenuItem[] }) {
  return (
    // Not modal: a dialog an item opens takes the focus and the page's pointer from here.
    <Menu.Root modal={false}>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" aria-label={label}>
          <MoreHorizontal className="h-4 w-4" aria-hidden />
          Actions
        </Button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-md border border-border bg-surface p-1 text-sm text-fg shadow-lg"
        >
          {items.map((item) => (
            <Menu.Item
              key={item.label}
              disabled={item.disabled}
              onSelect={item.onSelect}
              className={cn(
                'flex cursor-pointer select-none items-center rounded px-3 py-2 outline-none',
                'data-[highlighted]:bg-surface-2 data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
                item.danger && 'text-danger',
              )}
            >
              {item.label}
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
