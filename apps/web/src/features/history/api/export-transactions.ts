import type { TApiError } from '@coffer/shared';
import { useMutation } from '@tanstack/react-query';

const EXPORT_PATH = '/api/transactions/export.csv';
const DEFAULT_FILE_NAME = 'coffer-transactions.csv';

/** The file name the server suggests, if it is a plain one. */
function fileNameOf(res: Response): string {
  const header = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(header)?.[1];
  return name && /^[\w.-]+$/.test(name) ? name : DEFAULT_FILE_NAME;
}

/**
 * Downloads the customer's whole history as CSV. Fetched rather than linked so a failure
 * (signed out, server down) is told on screen instead of saving an error page as a file.
 */
export async function exportTransactions(): Promise<void> {
  let res: Response;
  try {
    res = await fetch(EXPORT_PATH, { credentials: 'same-origin' });
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
    // Give the browser a moment to start the download before the blob goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export function useExportTransactions() {
  return useMutation({ mutationFn: exportTransactions });
}
