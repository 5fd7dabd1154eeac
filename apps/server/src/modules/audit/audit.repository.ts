import type { RowOf } from '@server/db/rows';
import type { auditLog } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** A row as the chain sees it: ids as decimal text, times as stored, to the microsecond. */
export type AuditRow = Omit<RowOf<typeof auditLog>, 'created_at'> & {
  /** ISO 8601 in UTC with six fraction digits, e.g. 2026-01-02T03:04:05.123456Z. */
  created_at: string;
};

/** What the next row needs before it can be hashed. */
export type ChainHead = {
  id: string;
  created_at: string;
  /** The last row's hash, or null when the log is empty. */
  last_hash: string | null;
  isolation: string;
};

/** created_at exactly as hashed: PostgreSQL's microseconds, never a JavaScript Date's milliseconds. */
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** The audit log's SQL. Writes run on a connection inside the caller's transaction. */
export const auditRepository = {
  /**
   * Appends wait for each other until the appending transaction ends, so every row is
   * chained to the row committed before it and the chain never forks.
   */
  async lockChain(client: TxClient): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['audit-log']);
  },

  /**
   * The next id, the time of the row and the hash to chain to. Called with the chain locked;
   * the time is read then, so times follow the chain order.
   */
  async head(client: TxClient): Promise<ChainHead> {
    const { rows } = await client.query<ChainHead>(
      `SELECT nextval(pg_get_serial_sequence('audit_log', 'id'))::text AS id,
              to_char(clock_timestamp() AT TIME ZONE 'UTC', ${ISO_UTC}) AS created_at,
              (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1) AS last_hash,
              current_setting('transaction_isolation') AS isolation`,
    );
    const head = rows[0];
    if (!head) throw new Error('audit chain head query returned no row');
    return head;
  },

  async insert(client: TxClient, row: AuditRow): Promise<void> {
    await client.query(
      `INSERT INTO audit_log (id, actor_id, action, target_type, target_id, target_user_id, before, after,
         reason, ip, created_at, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11::timestamptz, $12, $13)`,
      [
        row.id,
        row.actor_id,
        row.action,
        row.target_type,
        row.target_id,
        row.target_user_id,
        row.before === null ? null : JSON.stringify(row.before),
        row.after === null ? null : JSON.stringify(row.after),
        row.reason,
        row.ip,
        row.created_at,
        row.prev_hash,
        row.hash,
      ],
    );
  },

  /**
   * Up to `limit` rows after `afterId`, in chain order. Ordered by the table's bigint id:
   * a bare `ORDER BY id` would sort the text `id` of the select list.
   */
  async batchAfter(pool: pg.Pool, afterId: string, limit: number): Promise<AuditRow[]> {
    const { rows } = await pool.query<AuditRow>(
      `SELECT id::text, actor_id, action, target_type, target_id, target_user_id, before, after, reason, ip,
              to_char(created_at AT TIME ZONE 'UTC', ${ISO_UTC}) AS created_at, prev_hash, hash
         FROM audit_log WHERE id > $1 ORDER BY audit_log.id LIMIT $2`,
      [afterId, limit],
    );
    return rows;
  },
};
