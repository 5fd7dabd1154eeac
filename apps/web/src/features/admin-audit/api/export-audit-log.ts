import type { TApiError, TAuditFilters } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';
import { auditSearchParams } from './get-audit-log';

const DEFAULT_FILE_NAME = 'coffer-audit.csv';

function fileNameOf(res: Response): string {
  const header = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(header)?.[1];
  return name && /^[\w.-]+$/.test(name) ? name : DEFAULT_FILE_NAME;
}

/**
 * Downloads the filtered audit log as CSV. Fetched rather than linked so a failure is told
 * on screen instead of saving an error page as a file.
 */
export async function exportAuditLog(filters: TAuditFilters): Promise<void> {
  const qs = auditSearchParams(filters).toString();
  let res: Response;
  try {
    res = await fetch(`/api/admin/audit/export.csv${qs ? `?${qs}` : ''}`, {
      credentials: 'same-origin',
    });
  } catch {
    throw new Error('Could not reach Coffer. Check your connection and try again.');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as Partial<TApiError> | null;
    throw new Error(body?.message ?? `Export failed (${res.status})`);
  }
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileNameOf(res);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export function useExportAuditLog() {
  return useMutation({ mutationFn: exportAuditLog });
}
