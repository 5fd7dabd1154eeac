import { cn } from '@web/lib/cn';
import { Loader2 } from 'lucide-react';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <Loader2 className={cn('h-5 w-5 animate-spin text-primary', className)} aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A whole-screen loading state with a visible text. */
export function PageSpinner({ text }: { text?: string }) {
  return (
    <div className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-muted">
      <Spinner className="h-8 w-8" label={text ?? 'Loading'} />
      {text ? <p>{text}</p> : null}
    </div>
  );
}
