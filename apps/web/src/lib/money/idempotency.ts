import { useState } from 'react';
import { ApiError } from '../api-client';

/**
 * A random key for the `Idempotency-Key` header. randomUUID exists only in secure contexts;
 * a self-hosted install reached over plain http falls back to the same 122 random bits.
 */
function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a failed money POST may have been carried out anyway: the connection broke or
 * something between us and the server failed after it had the request. Only then is the
 * same key sent again, so a retry can never move the money twice.
 */
function outcomeUnknown(err: unknown): boolean {
  return err instanceof ApiError && (err.code === 'NETWORK' || err.status >= 500);
}

/**
 * Idempotency keys for one form's money-moving submits: a fresh key per submit, and the
 * same key again when the customer retries the very same request after a failure whose
 * outcome we could not know. Plain functions, so the rule holds outside React too.
 */
export function createIdempotencyKeys(newKey: () => string = randomKey) {
  let pending: { key: string; body: string } | null = null;
  return {
    /** The key to send with `body`. */
    keyFor(body: unknown): string {
      const json = JSON.stringify(body);
      if (pending?.body === json) return pending.key;
      const key = newKey();
      pending = { key, body: json };
      return key;
    },
    /** Call when the submit has an answer: the key is kept only if the outcome is unknown. */
    settle(err?: unknown): void {
      if (!outcomeUnknown(err)) pending = null;
    },
  };
}

/** One form's idempotency keys, kept for as long as the form is on screen. */
export function useIdempotencyKey() {
  const [keys] = useState(() => createIdempotencyKeys());
  return keys;
}
