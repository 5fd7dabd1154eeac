import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';

/** A row's edit action in an admin table; `label` names what it edits for screen readers. */
export function EditButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button variant="outline" size="sm" disabled={disabled} onClick={onClick} aria-label={label}>
      <Pencil className="h-3.5 w-3.5" aria-hidden />
      {children}
    </Button>
  );
}
