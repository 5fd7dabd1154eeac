import type { TAuditFilters } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@web/lib/download';
import { auditSearchParams } from './get-audit-log';

/** Downloads the filtered audit log as CSV. */
export function exportAuditLog(filters: TAuditFilters): Promise<void> {
  const qs = auditSearchParams(filters).toString();
  return downloadFile(`/api/admin/audit/export.csv${qs ? `?${qs}` : ''}`, 'coffer-audit.csv');
}

export function useExportAuditLog() {
  return useMutation({ mutationFn: exportAuditLog });
}
