import type { ColumnsOf } from '@server/db/rows';
import type { outbox } from '@server/db/schema/index';
import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type OutboxKind = 'mail' | 'delete-files';

export type OutboxRow = ColumnsOf<
  typeof outbox,
  'id' | 'kind' | 'payload_encrypted' | 'attempts' | 'created_at'
>;

export const outboxRepository = {
  /**
   * Queues one row in the caller's transaction. `clock_timestamp()` rather than the
   * transaction's start: the time names the mail file, and files sort in queueing order.
   */
  /** Many rows in one statement, in the order given (clock_timestamp() is read per row). */
  async insertMany(
    client: pg.PoolClient,
    kind: OutboxKind,
    payloadsEncrypted: string[],
  ): Promise<void> {
    await client.query(
      `INSERT INTO outbox (kind, payload_encrypted, created_at)
       SELECT $1, p, clock_timestamp() FROM unnest($2::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n`,
      [kind, payloadsEncrypted],
    );
  },

  async insert(client: pg.PoolClient, kind: OutboxKind, payloadEncrypted: string): Promise<void> {
    await client.query(
      'INSERT INTO outbox (kind, payload_encrypted, created_at) VALUES ($1, $2, clock_timestamp())',
      [kind, payloadEncrypted],
    );
  },

  /**
   * How long statements of the caller's transaction wait for a row lock before failing with
   * 55P03 (lock_not_available). A whole number of seconds: SET takes no parameters.
   */
  async limitLockWait(client: pg.PoolClient, seconds: number): Promise<void> {
    if (!Number.isInteger(seconds) || seconds <= 0) throw new Error(`bad lock wait ${seconds}`);
    await client.query(`SET LOCAL lock_timeout = '${seconds}s'`);
  },

  /**
   * The oldest due row, locked until the caller's transaction ends. With `skipLocked` a row
   * another deliverer holds is passed over; without it the call waits for that deliverer and
   * then sees the row as it left it (done, or due later: then it is not returned).
   */
  async claimDue(client: pg.PoolClient, skipLocked: boolean): Promise<OutboxRow | null> {
    const { rows } = await client.query<OutboxRow>(
      `SELECT id, kind, payload_encrypted, attempts, created_at
         FROM outbox
        WHERE done_at IS NULL AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id
        LIMIT 1
        FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
    );
    return rows[0] ?? null;
  },

  async hasDue(db: Db): Promise<boolean> {
    const { rows } = await db.query(
      'SELECT 1 FROM outbox WHERE done_at IS NULL AND next_attempt_at <= now() LIMIT 1',
    );
    return rows.length > 0;
  },

  async markDone(client: pg.PoolClient, id: string): Promise<void> {
    await client.query('UPDATE outbox SET done_at = now(), last_error = NULL WHERE id = $1', [id]);
  },

  /** A failed attempt: counted, its reason kept, the next one `delaySeconds` from now. */
  async retryLater(
    client: pg.PoolClient,
    id: string,
    attempts: number,
    delaySeconds: number,
    error: string,
  ): Promise<void> {
    await client.query(
      `UPDATE outbox SET attempts = $2, last_error = $3,
              next_attempt_at = now() + make_interval(secs => $4)
        WHERE id = $1`,
      [id, attempts, error, delaySeconds],
    );
  },

  /**
   * The last attempt failed: the row stays undone (an operator can find it with
   * `done_at IS NULL`) but is never due again.
   */
  async giveUp(client: pg.PoolClient, id: string, attempts: number, error: string): Promise<void> {
    await client.query(
      `UPDATE outbox SET attempts = $2, last_error = $3, next_attempt_at = 'infinity'
        WHERE id = $1`,
      [id, attempts, error],
    );
  },

  /** Delivered rows are kept a while for an operator's questions, then removed. */
  async deleteDoneBefore(db: Db, days: number): Promise<number> {
    const res = await db.query(
      'DELETE FROM outbox WHERE done_at < now() - make_interval(days => $1)',
      [days],
    );
    return res.rowCount ?? 0;
  },

  /**
   * Which of `keys` a KYC submission or a chat message still names. One pass over each
   * table joined to the keys by hash, whatever the key layout: the sweep must never guess.
   */
  async referencedFileKeys(db: Db, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await db.query<{ key: string }>(
      `SELECT DISTINCT k.key
         FROM unnest($1::text[]) AS k(key)
         JOIN (SELECT front_document_key AS key FROM kyc_submissions
               UNION ALL
               SELECT back_document_key FROM kyc_submissions WHERE back_document_key IS NOT NULL
               UNION ALL
               SELECT file_key FROM chat_messages WHERE file_key IS NOT NULL) r ON r.key = k.key`,
      [keys],
    );
    return new Set(rows.map((r) => r.key));
  },
};
