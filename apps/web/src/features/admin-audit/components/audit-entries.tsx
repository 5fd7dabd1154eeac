import { AUDIT_PAGE_SIZE } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Pager } from '@web/components/ui/pager';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { RefreshCw } from 'lucide-react';
import type { useAuditLog } from '../api/get-audit-log';
import { AuditEntry } from './audit-entry';

/** Which entries of how many the page shows, and Previous / Next. */
function AuditPager({
  first,
  last,
  total,
  page,
  onPage,
}: {
  first: number;
  last: number;
  total: number;
  page: number;
  onPage: (update: (page: number) => number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return (
    <Pager
      label="Audit log pages"
      status={`Showing ${first}–${last} of ${total} · Page ${page} of ${pages}`}
      canPrevious={page > 1}
      canNext={page < pages}
      onPrevious={() => onPage((p) => Math.max(1, p - 1))}
      onNext={() => onPage((p) => Math.min(pages, p + 1))}
    />
  );
}

/** The page of the log the filters select: loading, the failure, none found, or the entries. */
export function AuditEntries({
  log,
  page,
  onPage,
  filtered,
}: {
  log: ReturnType<typeof useAuditLog>;
  page: number;
  onPage: (update: (page: number) => number) => void;
  /** A filter is set: an empty page means nothing matched, not an empty log. */
  filtered: boolean;
}) {
  if (log.isPending) return <PageSpinner text="Loading the audit log..." />;
  if (log.isError) {
    return (
      <Card>
        <CardContent className="flex flex-col items-start gap-3 pt-5" role="alert">
          <p className="font-semibold text-fg">Error loading the audit log</p>
          <p className="text-sm text-muted">{errorMessage(log.error, 'Request failed')}</p>
          <Button variant="outline" onClick={() => void log.refetch()}>
            <RefreshCw className="h-4 w-4" aria-hidden />
            Try Again
          </Button>
        </CardContent>
      </Card>
    );
  }
  if (log.data.items.length === 0) {
    return (
      <Card>
        <CardContent className="py-10 text-center text-sm text-muted">
          {filtered ? 'No audit entries match these filters.' : 'No admin actions recorded yet.'}
        </CardContent>
      </Card>
    );
  }
  const first = (log.data.page - 1) * log.data.pageSize + 1;
  const last = first + log.data.items.length - 1;
  return (
    <div className="space-y-3">
      <Card className={cn(log.isPlaceholderData && 'opacity-60')}>
        <ul aria-label="Audit entries" className="divide-y divide-border">
          {log.data.items.map((entry) => (
            <AuditEntry key={entry.id} entry={entry} />
          ))}
        </ul>
      </Card>
      <AuditPager first={first} last={last} total={log.data.total} page={page} onPage={onPage} />
    </div>
  );
}
