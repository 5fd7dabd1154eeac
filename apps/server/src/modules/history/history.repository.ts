import type pg from 'pg';
import { CONFIRMATIONS_SQL } from '../chains';
import type { TransactionRow } from '../ledger';

/** A row and its position in the keyset: the exact microsecond of its date, and its id. */
export type KeyedRow = TransactionRow & { date_us: string; live_count: string | null };

/** A row of the CSV export: its keyset position, its date as text, and the columns shown. */
export type ExportRow = Pick<
  TransactionRow,
  | 'id'
  | 'transaction_type'
  | 'asset_id'
  | 'crypto_amount'
  | 'fee'
  | 'usd_amount'
  | 'aud_amount'
  | 'exchange_rate'
  | 'price_usd'
  | 'status'
  | 'transaction_hash'
  | 'withdrawal_address'
  | 'reason'
> & { date_us: string; date: string };

/** Where a page starts: strictly after this (date, id) in newest-first order. */
export type Keyset = { dateUs: string; id: string };

// The ORDER BY spells out NULLS LAST because the index does: a plain DESC means NULLS FIRST
// to the planner (NOT NULL columns or not), and it would then sort instead of reading the
// index in order.
// transaction_date keeps microseconds and a JavaScript Date only milliseconds, so the
// position travels as an integer count of microseconds since the epoch, exact both ways.
// The customer's row count rides along as a scalar subquery (one InitPlan, one row read
// from the trigger-kept user_transaction_counts): a page costs one round trip, not two.
const SELECT_KEYED = `SELECT *, (extract(epoch FROM transaction_date) * 1000000)::bigint::text AS date_us,
    (SELECT live_count FROM user_transaction_counts c WHERE c.user_id = $1)::text AS live_count
  FROM transactions`;

export const historyRepository = {
  /**
   * The chain deposits still confirming among these ledger rows: their
   * confirmations and the chain's setting they are credited at, by ledger row id.
   */
  async confirmingDeposits(
    pool: pg.Pool,
    transactionIds: string[],
  ): Promise<Map<string, { current: number; required: number }>> {
    if (transactionIds.length === 0) return new Map();
    const { rows } = await pool.query<{ id: string; current: number; required: string | null }>(
      `SELECT d.transaction_id AS id, ${CONFIRMATIONS_SQL} AS current, s.setting_value AS required
         FROM chain_deposits d LEFT JOIN chain_cursors c USING (chain)
         LEFT JOIN app_settings s ON s.setting_key = CASE d.chain
           WHEN 'bitcoin' THEN 'confirmations_btc' WHEN 'ethereum' THEN 'confirmations_eth'
           WHEN 'tron' THEN 'confirmations_tron' END
        WHERE d.transaction_id = ANY($1::uuid[]) AND d.status = 'confirming'`,
      [transactionIds],
    );
    const out = new Map<string, { current: number; required: number }>();
    for (const r of rows) {
      const required = Number(r.required);
      if (Number.isInteger(required) && required >= 1)
        out.set(r.id, { current: Math.min(r.current, required), required });
    }
    return out;
  },

  /**
   * Withdrawals sent on chain among these ledger rows: the transaction that pays each, its
   * confirmations so far and the chain's setting it completes at ("Sent — confirming").
   */
  async sentPayouts(
    pool: pg.Pool,
    transactionIds: string[],
  ): Promise<Map<string, { txHash: string; current: number; required: number }>> {
    if (transactionIds.length === 0) return new Map();
    const { rows } = await pool.query<{
      id: string;
      tx_hash: string;
      current: number | null;
      required: string | null;
    }>(
      `SELECT p.transaction_id AS id, p.tx_hash,
              CASE WHEN p.block_height IS NULL THEN 0
                   ELSE greatest(0, c.height - p.block_height + 1) END::int AS current,
              s.setting_value AS required
         FROM payouts p LEFT JOIN chain_cursors c USING (chain)
         LEFT JOIN app_settings s ON s.setting_key = CASE p.chain
           WHEN 'bitcoin' THEN 'confirmations_btc' WHEN 'ethereum' THEN 'confirmations_eth'
           WHEN 'tron' THEN 'confirmations_tron' END
        WHERE p.transaction_id = ANY($1::uuid[]) AND p.tx_hash IS NOT NULL
          AND p.state IN ('broadcast', 'confirming', 'manual')`,
      [transactionIds],
    );
    const out = new Map<string, { txHash: string; current: number; required: number }>();
    for (const r of rows) {
      const required = Number(r.required);
      if (Number.isInteger(required) && required >= 1)
        out.set(r.id, {
          txHash: r.tx_hash,
          current: Math.min(r.current ?? 0, required),
          required,
        });
    }
    return out;
  },

  /**
   * One page of a customer's history, newest first, by keyset: a range scan of
   * transactions_user_date_idx (user_id, transaction_date DESC, id DESC) from the cursor,
   * so page 1,000 costs what page 1 does.
   */
  async page(
    pool: pg.Pool,
    userId: string,
    after: Keyset | null,
    limit: number,
  ): Promise<KeyedRow[]> {
    // Named statements: planned once per connection, as a history page is a hot path.
    const { rows } = after
      ? await pool.query<KeyedRow>({
          name: 'history_page_after',
          text: `${SELECT_KEYED}
            WHERE user_id = $1 AND deleted_at IS NULL
              AND (transaction_date, id) < ('epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3::uuid)
            ORDER BY transaction_date DESC NULLS LAST, id DESC NULLS LAST LIMIT $4`,
          values: [userId, after.dateUs, after.id, limit],
        })
      : await pool.query<KeyedRow>({
          name: 'history_page_first',
          text: `${SELECT_KEYED} WHERE user_id = $1 AND deleted_at IS NULL
            ORDER BY transaction_date DESC NULLS LAST, id DESC NULLS LAST LIMIT $2`,
          values: [userId, limit],
        });
    return rows;
  },

  /**
   * A batch of the export: only the columns the CSV shows, the date already as ISO text.
   * Narrow rows keep a 100,000-row export about the cost of reading the index.
   */
  async exportBatch(
    pool: pg.Pool,
    userId: string,
    after: Keyset | null,
    limit: number,
  ): Promise<ExportRow[]> {
    // Two statements rather than "$2 IS NULL OR …": a generic plan of that would filter
    // the whole index instead of starting the scan at the cursor.
    const from = after
      ? `AND (transaction_date, id) < ('epoch'::timestamptz + $3::bigint * interval '1 microsecond', $4::uuid)`
      : '';
    const { rows } = await pool.query<ExportRow>(
      `SELECT id, (extract(epoch FROM transaction_date) * 1000000)::bigint::text AS date_us,
              to_char(transaction_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date,
              transaction_type, asset_id, crypto_amount::text, fee::text, usd_amount::text,
              aud_amount::text, exchange_rate::text, price_usd::text, status, transaction_hash, withdrawal_address, reason
         FROM transactions
        WHERE user_id = $1 AND deleted_at IS NULL ${from}
        ORDER BY transaction_date DESC NULLS LAST, id DESC NULLS LAST LIMIT $2`,
      after ? [userId, limit, after.dateUs, after.id] : [userId, limit],
    );
    return rows;
  },

  /** The trigger-kept count of the user's live rows: one row read, however long the history. */
  async count(pool: pg.Pool, userId: string): Promise<number> {
    const { rows } = await pool.query<{ n: string }>({
      name: 'history_count',
      text: 'SELECT live_count AS n FROM user_transaction_counts WHERE user_id = $1',
      values: [userId],
    });
    return Number(rows[0]?.n ?? 0);
  },
};
