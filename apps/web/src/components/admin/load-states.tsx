import { cn } from '@web/lib/cn';
import type { ReactNode } from 'react';
import { Button } from '../ui/button';
import { Spinner } from '../ui/spinner';

// The vertical padding comes from the caller: a table under a card title sits tighter than
// one alone in its card, or in a dialog.

/** What an admin table or dialog shows while its data loads. */
export function LoadingState({ label, className }: { label: string; className: string }) {
  return (
    <div className={cn('flex justify-center', className)}>
      <Spinner className="h-6 w-6" label={label} />
    </div>
  );
}

/** What an admin table or dialog shows when its data could not be loaded, with a way to try again. */
export function LoadError({
  message,
  onRetry,
  className,
}: {
  message: ReactNode;
  onRetry: () => void;
  className: string;
}) {
  return (
    <div role="alert" className={cn('space-y-3 text-sm', className)}>
      <p className="text-danger">{message}</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
