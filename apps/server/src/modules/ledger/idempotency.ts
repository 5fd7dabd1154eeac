import { createHash } from 'node:crypto';
import type { TxClient } from '../../db/tx';
import { AppError } from '../../lib/app-error';

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
  const inserted = await client.query(
    `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body)
     VALUES ($1, $2, $3, 0, 'null') ON CONFLICT (user_id, key) DO NOTHING`,
    [input.userId, input.key, input.hash],
  );
  if (inserted.rowCount === 1) {
    const answer = await action();
    await client.query(
      'UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE user_id = $1 AND key = $2',
      [input.userId, input.key, answer.status, JSON.stringify(answer.body)],
    );
    return answer;
  }
  const { rows } = await client.query<{
    request_hash: string;
    response_status: number;
    response_body: T;
  }>(
    'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [input.userId, input.key],
  );
  const stored = rows[0];
  if (!stored) throw new Error('idempotency key vanished');
  if (stored.request_hash !== input.hash) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This Idempotency-Key was already used for a different request.',
    );
  }
  return { status: stored.response_status, body: stored.response_body };
}
