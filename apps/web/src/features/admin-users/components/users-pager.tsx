import { Button } from '@web/components/ui/button';

const numberFormat = new Intl.NumberFormat('en-US');

/** Previous / Next through the customer list, with where we are. */
export function UsersPager({
  page,
  pages,
  total,
  onPage,
}: {
  page: number;
  pages: number;
  total: number;
  onPage: (update: (page: number) => number) => void;
}) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-2 text-sm">
      <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage((p) => p - 1)}>
        Previous
      </Button>
      <span className="text-muted">
        Page {page} of {pages} · {numberFormat.format(total)} users
      </span>
      <Button
        size="sm"
        variant="outline"
        disabled={page >= pages}
        onClick={() => onPage((p) => p + 1)}
      >
        Next
      </Button>
    </nav>
  );
}
