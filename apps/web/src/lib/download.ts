import type { TApiError } from '@coffer/shared';
import { saveBlob } from './upload-client';

/** The file name the server suggests, if it is a plain one. */
function fileNameOf(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/i.exec(header)?.[1];
  return name && /^[\w.-]+$/.test(name) ? name : fallback;
}

/**
 * Downloads what `path` answers as a file (an export). Fetched rather than linked so a
 * failure (signed out, server down) is told on screen instead of saving an error page.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new Error('Could not reach Coffer. Check your connection and try again.');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as Partial<TApiError> | null;
    throw new Error(body?.message ?? `Export failed (${res.status})`);
  }
  saveBlob(await res.blob(), fileNameOf(res, fallbackName));
}
