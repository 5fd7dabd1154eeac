import type { TApiError } from '@coffer/shared';
import { ApiError } from './api-client';

const NETWORK_MESSAGE = 'Could not reach Coffer. Check your connection and try again.';

async function failure(res: Response): Promise<ApiError> {
  let body: Partial<TApiError> | null = null;
  try {
    body = (await res.json()) as Partial<TApiError>;
  } catch {
    body = null;
  }
  return new ApiError(
    res.status,
    body?.error ?? 'INTERNAL',
    body?.message ?? `Request failed (${res.status})`,
  );
}

/**
 * Sends a form with files (`multipart/form-data`); the browser sets the boundary. The
 * answer is JSON like every other API call.
 */
export async function postForm<T>(path: string, form: FormData): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { method: 'POST', credentials: 'same-origin', body: form });
  } catch {
    throw new ApiError(0, 'NETWORK', NETWORK_MESSAGE);
  }
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

/**
 * A private file (an identity document, a chat attachment) fetched with the session, as a
 * Blob: shown through an object URL or saved with `saveBlob`. Files are never public links.
 */
export async function fetchFile(path: string, signal?: AbortSignal): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin', signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_MESSAGE);
  }
  if (!res.ok) throw await failure(res);
  return res.blob();
}

/** Saves a Blob as a download under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL is released.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
