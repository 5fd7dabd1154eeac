import { Button } from '../ui/button';

/**
 * Previous / Next through a queue read by keyset, and how many rows match. The server gives
 * each page's neighbours as cursors; none on the first page, none past the last.
 */
export function QueuePager({
  total,
  noun,
  prevCursor,
  nextCursor,
  waiting,
  stranded,
  onPage,
}: {
  total: number;
  /** What is counted, singular and plural: ['withdrawal', 'withdrawals']. */
  noun: readonly [string, string];
  prevCursor: string | null;
  nextCursor: string | null;
  /** The next page's answer has not come yet. */
  waiting: boolean;
  /** A later page came out empty (its rows went meanwhile): it leads back to the first. */
  stranded: boolean;
  onPage: (cursor: string | undefined) => void;
}) {
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-muted" aria-live="polite">
        {total} {total === 1 ? noun[0] : noun[1]}
      </p>
      {prevCursor || nextCursor || stranded ? (
        <div className="flex gap-2">
          {stranded ? (
            <Button variant="outline" size="sm" onClick={() => onPage(undefined)}>
              First page
            </Button>
          ) : null}
          <Button
            variant="outline"
            size="sm"
            disabled={!prevCursor || waiting}
            onClick={() => onPage(prevCursor ?? undefined)}
          >
            Previous
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={!nextCursor || waiting}
            onClick={() => onPage(nextCursor ?? undefined)}
          >
            Next
          </Button>
        </div>
      ) : null}
    </nav>
  );
}
