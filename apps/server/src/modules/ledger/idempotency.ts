import { createHash } from 'node:crypto';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { idempotencyRepository as repo } from './idempotency.repository';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

export type StoredAnswer<T> = { status: number; body: T };

export function requestHash(route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${route}\0${JSON.stringify(body)}`)
    .digest('hex');
}

/**
 * Runs a money-moving action at most once per (user, key), inside the caller's database
 * transaction. The key row is inserted first: a concurrent repeat waits on it until the
 * first commits, then gets the first answer. If the first fails, its transaction rolls the
 * key back with everything else and a repeat runs afresh. The same key with another body
 * is refused.
 */
export async function runOnce<T>(
  client: TxClient,
  input: { userId: string; key: string | undefined; hash: string },
  action: () => Promise<StoredAnswer<T>>,
): Promise<StoredAnswer<T>> {
  if (!input.key) return action();
  if (input.key.length > 200)
    throw new AppError('VALIDATION_FAILED', 'The Idempotency-Key header is too long.');
  if (await repo.claimIdempotencyKey(client, input.userId, input.key, input.hash)) {
    const answer = await action();
    await repo.storeIdempotentAnswer(client, input.userId, input.key, answer);
    return answer;
  }
  const stored = await repo.idempotentAnswer<T>(client, input.userId, input.key);
  if (!stored) throw new Error('idempotency key vanished');
  if (stored.request_hash !== input.hash) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used for a different request.',
    );
  }
  return { status: stored.response_status, body: stored.response_body };
}
