import { useCopied } from '@web/lib/clipboard';
import { Check, Copy } from 'lucide-react';

/** A small copy button; it shows a tick for 2 s after copying. */
export function CopyValueButton({ value, label }: { value: string; label: string }) {
  const { copied, copy } = useCopied();
  const done = copied === value;
  return (
    <button
      type="button"
      className={
        'inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-muted ' +
        'hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 ' +
        'focus-visible:outline-primary'
      }
      aria-label={done ? 'Copied' : label}
      title={done ? 'Copied' : label}
      onClick={() => void copy(value, value)}
    >
      {done ? (
        <Check className="h-4 w-4 text-success" aria-hidden />
      ) : (
        <Copy className="h-4 w-4" aria-hidden />
      )}
    </button>
  );
}
