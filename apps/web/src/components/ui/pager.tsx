import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * Previous and Next under a list, with where the reader is between them ("Page 2 of 9").
 * A button is disabled where there is no page to turn to, or while the next answer is
 * still on its way.
 */
export function Pager({
  label = 'Pages',
  status,
  canPrevious,
  canNext,
  onPrevious,
  onNext,
}: {
  label?: string;
  status?: ReactNode;
  canPrevious: boolean;
  canNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-2 pt-2">
      <Button variant="outline" size="sm" disabled={!canPrevious} onClick={onPrevious}>
        <ChevronLeft className="h-4 w-4" aria-hidden />
        Previous
      </Button>
      {status ? <span className="text-sm text-muted">{status}</span> : null}
      <Button variant="outline" size="sm" disabled={!canNext} onClick={onNext}>
        Next
        <ChevronRight className="h-4 w-4" aria-hidden />
      </Button>
    </nav>
  );
}
