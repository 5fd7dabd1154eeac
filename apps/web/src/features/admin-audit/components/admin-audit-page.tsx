import type { TAuditFilters } from '@coffer/shared';
import { Button } from '@web/components/ui/button';
import { errorMessage } from '@web/lib/api-client';
import { useDebounced } from '@web/lib/use-debounced';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { useExportAuditLog } from '../api/export-audit-log';
import { useAuditLog } from '../api/get-audit-log';
import { AuditEntries } from './audit-entries';
import { AuditFilters, anyAuditFilter, NO_AUDIT_FILTERS } from './audit-filters';
import { ChainStatus } from './chain-status';

/** /dashboard/admin/audit (product.md M7): every admin action, searchable, exportable. */
export default function AdminAuditPage() {
  const [form, setForm] = useState<TAuditFilters>(NO_AUDIT_FILTERS);
  const [page, setPage] = useState(1);
  const q = useDebounced(form.q, 300);
  const targetUser = useDebounced(form.targetUser, 300);
  const filters: TAuditFilters = { ...form, q, targetUser };
  const log = useAuditLog(filters, page);
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

      <AuditFilters
        filters={form}
        onChange={set}
        onClear={() => {
          setForm(NO_AUDIT_FILTERS);
          setPage(1);
        }}
      />

      <section aria-label="Audit entries list">
        <AuditEntries log={log} page={page} onPage={setPage} filtered={anyAuditFilter(form)} />
      </section>
    </div>
  );
}
