import {
  SESSION_BACKGROUND_HEADER,
  SESSION_EXPIRES_HEADER,
  type TApiError,
  type TErrorCode,
} from '@coffer/shared';
import { noteSecondsLeft, userIsActive } from './session-expiry';

/** An API failure as the server described it: `{ error, message }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: TErrorCode | 'NETWORK',
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Options = {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * Whether the request is the app's own rather than the user's: such a request does not
   * keep the session alive. By default, a request is the user's when they pressed a key or
   * a pointer in the last few seconds (lib/session-expiry.ts).
   */
  background?: boolean;
};

/** Per-request options of `api.get`. */
export type GetOptions = { signal?: AbortSignal; background?: boolean };

/** Extra request headers, e.g. `{ 'Idempotency-Key': key }` on a money-moving POST. */
export type RequestHeaders = Record<string, string>;

/** A JSON body; undefined for a non-JSON one (a proxy's HTML error page, say). */
function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function request<T>(method: string, path: string, opts: Options = {}): Promise<T> {
  let res: Response;
  const sentAt = Date.now();
  const background = opts.background ?? !userIsActive();
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        ...(background ? { [SESSION_BACKGROUND_HEADER]: '1' } : {}),
        ...opts.headers,
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch {
    throw new ApiError(
      0,
      'NETWORK',
      'Could not reach Coffer. Check your connection and try again.',
    );
  }
  const secondsLeft = res.headers.get(SESSION_EXPIRES_HEADER);
  if (secondsLeft !== null && /^-?\d{1,9}$/.test(secondsLeft)) {
    noteSecondsLeft(Number(secondsLeft), sentAt);
  }
  const text = await res.text();
  const data = parseBody(text);
  if (!res.ok) {
    const err = (data ?? null) as Partial<TApiError> | null;
    throw new ApiError(
      res.status,
      err?.error ?? 'INTERNAL',
      err?.message ?? `Request failed (${res.status})`,
    );
  }
  if (data === undefined) {
    throw new ApiError(res.status, 'INTERNAL', 'The server sent an unexpected answer.');
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal, opts: Omit<GetOptions, 'signal'> = {}) =>
    request<T>('GET', path, { signal, ...opts }),
  post: <T>(path: string, body: unknown = {}, headers?: RequestHeaders) =>
    request<T>('POST', path, { body, headers }),
  put: <T>(path: string, body: unknown = {}) => request<T>('PUT', path, { body }),
  patch: <T>(path: string, body: unknown = {}) => request<T>('PATCH', path, { body }),
  /** A body carries what a deletion needs, e.g. the admin's reason. */
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, { body }),
};

export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}
