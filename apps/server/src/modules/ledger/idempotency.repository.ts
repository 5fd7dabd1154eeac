import type { ColumnsOf } from '@server/db/rows';
import type { idempotencyKeys } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';

/** A stored key's request hash and answer; the answer's body as the action returned it. */
type StoredKey<T> = ColumnsOf<typeof idempotencyKeys, 'request_hash' | 'response_status'> & {
  response_body: T;
};

/** The SQL of idempotency keys, on the connection of the caller's transaction. */
export const idempotencyRepository = {
  /**
   * Stores an idempotency key with no answer yet, unless (user, key) is there already: true
   * when this call stored it. A concurrent insert of the same key waits until the first
   * transaction ends.
   */
  async claimIdempotencyKey(
    client: TxClient,
    userId: string,
    key: string,
    requestHash: string,
  ): Promise<boolean> {
    const inserted = await client.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body)
       VALUES ($1, $2, $3, 0, 'null') ON CONFLICT (user_id, key) DO NOTHING`,
      [userId, key, requestHash],
    );
    return inserted.rowCount === 1;
  },

  async storeIdempotentAnswer(
    client: TxClient,
    userId: string,
    key: string,
    answer: { status: number; body: unknown },
  ): Promise<void> {
    await client.query(
      'UPDATE idempotency_keys SET response_status = $3, response_body = $4 WHERE user_id = $1 AND key = $2',
      [userId, key, answer.status, JSON.stringify(answer.body)],
    );
  },

  /** The stored request hash and answer of (user, key), or null. */
  async idempotentAnswer<T>(
    client: TxClient,
    userId: string,
    key: string,
  ): Promise<StoredKey<T> | null> {
    const { rows } = await client.query<StoredKey<T>>(
      'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [userId, key],
    );
    return rows[0] ?? null;
  },
};
