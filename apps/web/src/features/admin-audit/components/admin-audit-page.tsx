import { AUDIT_PAGE_SIZE, type TAuditEntry, type TAuditFilters } from '@coffer/shared';
import { SELECT_CLASS } from '@web/components/admin/stacked-table';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { PageSpinner } from '@web/components/ui/spinner';
import { errorMessage } from '@web/lib/api-client';
import { cn } from '@web/lib/cn';
import { useDebounced } from '@web/lib/use-debounced';
import { ChevronLeft, ChevronRight, Download, RefreshCw, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { useExportAuditLog } from '../api/export-audit-log';
import { useAuditFacets } from '../api/get-audit-facets';
import { useAuditLog } from '../api/get-audit-log';
import { AuditChanges } from './audit-changes';
import { ChainStatus } from './chain-status';

const EMPTY: TAuditFilters = { q: '', actor: '', action: '', targetUser: '', from: '', to: '' };

function Entry({ entry }: { entry: TAuditEntry }) {
  const at = new Date(entry.createdAt);
  return (
    <li className="grid gap-3 p-4 lg:grid-cols-[14rem_1fr]">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <Badge variant="secondary" className="font-mono">
            {entry.action}
          </Badge>
          <span className="text-xs text-muted">#{entry.id}</span>
        </p>
        <p className="text-fg">
          <time dateTime={entry.createdAt}>{at.toLocaleString()}</time>
        </p>
        <p className="truncate text-muted" title={entry.actorEmail ?? undefined}>
          By{' '}
          <span className="text-fg">
            {entry.actorEmail ?? (entry.actorId ? entry.actorId : 'System')}
          </span>
        </p>
        <p className="text-xs text-muted">IP {entry.ip ?? '—'}</p>
      </div>
      <div className="min-w-0 space-y-2">
        <p className="break-words text-sm text-muted">
          Target <span className="text-fg">{entry.targetType}</span>{' '}
          <span className="font-mono text-fg">{entry.targetId}</span>
          {entry.targetUserId ? (
            <>
              {' '}
              · customer{' '}
              <span className="text-fg">{entry.targetUserEmail ?? entry.targetUserId}</span>
            </>
          ) : null}
        </p>
        {entry.reason ? (
          <p className="break-words text-sm">
            <span className="text-muted">Reason: </span>
            <span className="text-fg">{entry.reason}</span>
          </p>
        ) : null}
        <AuditChanges before={entry.before} after={entry.after} />
      </div>
    </li>
  );
}

/** /dashboard/admin/audit (product.md M7): every admin action, searchable, exportable. */
export default function AdminAuditPage() {
  const [form, setForm] = useState<TAuditFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const q = useDebounced(form.q, 300);
  const targetUser = useDebounced(form.targetUser, 300);
  const filters: TAuditFilters = { ...form, q, targetUser };
  const log = useAuditLog(filters, page);
  const facets = useAuditFacets();
  const exporter = useExportAuditLog();

  function set<K extends keyof TAuditFilters>(key: K, value: TAuditFilters[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setPage(1);
  }

  function onExport() {
    exporter.mutate(filters, {
      onError: (err) =>
        toast.error('Export failed', {
          description: errorMessage(err, 'Failed to export the audit log'),
        }),
    });
  }

  const total = log.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const filtered = Object.values(form).some((v) => v !== '');

  let body: ReactNode;
  if (log.isPending) {
    body = <PageSpinner text="Loading the audit log..." />;
  } else if (log.isError) {
    body = (
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
  } else if (log.data.items.length === 0) {
    body = (
      <Card>
        <CardContent className="py-10 text-center text-sm text-muted">
          {filtered ? 'No audit entries match these filters.' : 'No admin actions recorded yet.'}
        </CardContent>
      </Card>
    );
  } else {
    const first = (log.data.page - 1) * log.data.pageSize + 1;
    const last = first + log.data.items.length - 1;
    body = (
      <div className="space-y-3">
        <Card className={cn(log.isPlaceholderData && 'opacity-60')}>
          <ul aria-label="Audit entries" className="divide-y divide-border">
            {log.data.items.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ul>
        </Card>
        <nav
          aria-label="Audit log pages"
          className="flex flex-wrap items-center justify-between gap-3"
        >
          <p className="text-sm text-muted">
            Showing {first}–{last} of {total}
          </p>
          <div className="flex items-center gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => setPage((p) => Math.max(1, p - 1))}
              disabled={page <= 1}
            >
              <ChevronLeft className="h-4 w-4" aria-hidden />
              Previous
            </Button>
            <span className="text-sm text-fg">
              Page {page} of {pages}
            </span>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setPage((p) => Math.min(pages, p + 1))}
              disabled={page >= pages}
            >
              Next
              <ChevronRight className="h-4 w-4" aria-hidden />
            </Button>
          </div>
        </nav>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-fg">Audit Log</h1>
          <p className="text-sm text-muted">
            Every admin action: who, what, before and after, when and from where. Nobody can edit
            it.
          </p>
        </div>
        <Button variant="outline" onClick={onExport} disabled={exporter.isPending}>
          <Download className="h-4 w-4" aria-hidden />
          {exporter.isPending ? 'Exporting...' : 'Export CSV'}
        </Button>
      </header>

      <ChainStatus />

      <Card>
        <CardContent className="pt-5">
          <form
            aria-label="Filter the audit log"
            className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
            onSubmit={(e) => e.preventDefault()}
          >
            <div className="space-y-1 sm:col-span-2 lg:col-span-3">
              <Label htmlFor="audit-q">Search</Label>
              <Input
                id="audit-q"
                type="search"
                placeholder="Action, target, reason, IP or e-mail"
                value={form.q}
                onChange={(e) => set('q', e.target.value)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="audit-actor">Actor</Label>
              <select
                id="audit-actor"
                className={SELECT_CLASS}
                value={form.actor}
                onChange={(e) => set('actor', e.target.value)}
              >
                <option value="">All admins</option>
                {facets.data?.actors.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.email ?? a.id}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="audit-action">Action</Label>
              <select
                id="audit-action"
                className={SELECT_CLASS}
                value={form.action}
                onChange={(e) => set('action', e.target.value)}
              >
                <option value="">All actions</option>
                {facets.data?.actions.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="audit-target">Target user</Label>
              <Input
                id="audit-target"
                placeholder="E-mail or user id"
                value={form.targetUser}
                onChange={(e) => set('targetUser', e.target.value)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="audit-from">From (UTC)</Label>
              <Input
                id="audit-from"
                type="date"
                value={form.from}
                max={form.to || undefined}
                onChange={(e) => set('from', e.target.value)}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor="audit-to">To (UTC)</Label>
              <Input
                id="audit-to"
                type="date"
                value={form.to}
                min={form.from || undefined}
                onChange={(e) => set('to', e.target.value)}
              />
            </div>
            <div className="flex items-end">
              <Button
                type="button"
                variant="ghost"
                onClick={() => {
                  setForm(EMPTY);
                  setPage(1);
                }}
                disabled={!filtered}
              >
                <X className="h-4 w-4" aria-hidden />
                Clear filters
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>

      <section aria-label="Audit entries list">{body}</section>
    </div>
  );
}
