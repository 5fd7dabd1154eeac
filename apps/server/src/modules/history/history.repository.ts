import { sha256Hex } from '@server/lib/crypto';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';

/** What the customer narrowed their history to, and the order it is read in. */
export type HistoryScope = {
  userId: string;
  type: string | null;
  asset: string | null;
  status: string | null;
  /**
   * The search: an ILIKE pattern for hashes and addresses (its own `%`, `_` and `\`
   * escaped), and the text as a decimal when it is one, compared with the amounts.
   */
  search: { pattern: string; amount: string | null } | null;
  sort: 'date' | 'amount';
};

/**
 * A position in the order: the sort column's value as exact text (a date as the integer
 * count of microseconds since the epoch, an amount as its numeric text) and the row's id.
 */
export type Keyset = { key: string; id: string };

/** A row, its position in the order, and the customer's trigger-kept row count. */
export type KeyedRow = TransactionRow & { sort_key: string; live_count: string | null };

/** A row of the CSV export: its position, its date as text, and the columns shown. */
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
> & { sort_key: string; date: string };

/**
 * Each sort's column and the id after it (the order of transactions_user_date_idx and
 * transactions_user_amount_idx), named with their table: the export selects the amount as
 * text under the column's own name, and a bare name in an ORDER BY would sort that text.
 * Then its value as the exact text a cursor carries, and a cursor's text read back as a
 * value of the column. transaction_date keeps microseconds and a JavaScript Date only
 * milliseconds, so a date travels as an integer count of microseconds since the epoch.
 */
const SORTS = {
  date: {
    column: 'transactions.transaction_date',
    keyText: '(extract(epoch FROM transaction_date) * 1000000)::bigint::text',
    keyValue: (p: string) => `('epoch'::timestamptz + ${p}::bigint * interval '1 microsecond')`,
  },
  amount: {
    column: 'transactions.crypto_amount',
    keyText: 'crypto_amount::text',
    keyValue: (p: string) => `${p}::numeric`,
  },
} as const;

/** The payouts' states in which the history shows the chain transaction that pays them. */
const SENT_STATES = "('broadcast', 'confirming', 'manual')";

/** Whether the scope narrows the history at all: if not, the trigger-kept count is its size. */
export function narrowed(scope: HistoryScope): boolean {
  return scope.type !== null || scope.asset !== null || scope.status !== null || !!scope.search;
}

/**
 * The WHERE and ORDER BY of a scope read from `from` (exclusive) in one direction, with the
 * statement's parameters, `$1` the customer. Every filter is a plain condition on the
 * customer's index range, so the scan still starts at the cursor and stops at the page's end.
 * The ORDER BY spells out NULLS LAST (and, read backwards, NULLS FIRST) because the indexes
 * do: a plain DESC means NULLS FIRST to the planner (NOT NULL columns or not), and it would
 * then sort instead of reading the index in order.
 */
function clauses(
  scope: HistoryScope,
  from: Keyset | null,
  desc: boolean,
): { where: string; order: string; values: unknown[] } {
  const values: unknown[] = [scope.userId];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = ['user_id = $1', 'deleted_at IS NULL'];
  if (scope.type !== null) where.push(`transaction_type = ${param(scope.type)}`);
  if (scope.asset !== null) where.push(`asset_id = ${param(scope.asset)}`);
  if (scope.status !== null) where.push(`status = ${param(scope.status)}`);
  if (scope.search) {
    const p = param(scope.search.pattern);
    // A withdrawal on its way shows the chain transaction that pays it before its row
    // has one (history.service): its hash finds it too.
    const any = [
      `transaction_hash ILIKE ${p}`,
      `withdrawal_address ILIKE ${p}`,
      `id IN (SELECT transaction_id FROM payouts WHERE tx_hash ILIKE ${p} AND state IN ${SENT_STATES})`,
    ];
    if (scope.search.amount !== null) {
      const a = param(scope.search.amount);
      any.push(`crypto_amount = ${a}::numeric`, `aud_amount = ${a}::numeric`);
    }
    where.push(`(${any.join(' OR ')})`);
  }
  const sort = SORTS[scope.sort];
  if (from) {
    where.push(
      `(${sort.column}, transactions.id) ${desc ? '<' : '>'} (${sort.keyValue(param(from.key))}, ${param(from.id)}::uuid)`,
    );
  }
  const way = desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
  return {
    where: where.join(' AND '),
    order: `${sort.column} ${way}, transactions.id ${way}`,
    values,
  };
}

/**
 * A named statement, planned once per connection (a history page is a hot path); the name
 * follows the text, as each combination of filters is a statement of its own.
 */
function named(text: string, values: unknown[]): pg.QueryConfig {
  const name = `history_${sha256Hex(text).slice(0, 24)}`;
  return { name, text, values };
}

export const historyRepository = {
  /**
   * One page of a customer's history from a keyset position, in the scope's order read
   * `desc` or not: a range scan of the customer's date or amount index from the cursor, so
   * page 1,000 costs what page 1 does. The customer's row count rides along as a scalar
   * subquery (one row read from the trigger-kept user_transaction_counts).
   */
  async page(
    pool: pg.Pool,
    scope: HistoryScope,
    from: Keyset | null,
    desc: boolean,
    limit: number,
  ): Promise<KeyedRow[]> {
    const { where, order, values } = clauses(scope, from, desc);
    const text = `SELECT *, ${SORTS[scope.sort].keyText} AS sort_key,
        (SELECT live_count FROM user_transaction_counts c WHERE c.user_id = $1)::text AS live_count
      FROM transactions WHERE ${where} ORDER BY ${order} LIMIT $${values.length + 1}`;
    const { rows } = await pool.query<KeyedRow>(named(text, [...values, limit]));
    return rows;
  },

  /** Whether any row of the scope lies beyond `from` in that direction (a page there). */
  async any(pool: pg.Pool, scope: HistoryScope, from: Keyset, desc: boolean): Promise<boolean> {
    const { where, order, values } = clauses(scope, from, desc);
    const text = `SELECT EXISTS (SELECT 1 FROM transactions WHERE ${where} ORDER BY ${order} LIMIT 1) AS found`;
    const { rows } = await pool.query<{ found: boolean }>(named(text, values));
    return rows[0]?.found ?? false;
  },

  /**
   * A batch of the export: only the columns the CSV shows, the date already as ISO text.
   * Narrow rows keep a 100,000-row export about the cost of reading the index.
   */
  async exportBatch(
    pool: pg.Pool,
    scope: HistoryScope,
    from: Keyset | null,
    desc: boolean,
    limit: number,
  ): Promise<ExportRow[]> {
    const { where, order, values } = clauses(scope, from, desc);
    const { rows } = await pool.query<ExportRow>(
      `SELECT id, ${SORTS[scope.sort].keyText} AS sort_key,
              to_char(transaction_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS date,
              transaction_type, asset_id, crypto_amount::text, fee::text, usd_amount::text,
              aud_amount::text, exchange_rate::text, price_usd::text, status, transaction_hash, withdrawal_address, reason
         FROM transactions
        WHERE ${where} ORDER BY ${order} LIMIT $${values.length + 1}`,
      [...values, limit],
    );
    return rows;
  },

  /**
   * How many rows the scope holds. The whole history is the trigger-kept count of the
   * customer's live rows, one row read however long it is; a narrowed one is counted over
   * the customer's rows.
   */
  async count(pool: pg.Pool, scope: HistoryScope): Promise<number> {
    if (!narrowed(scope)) {
      const { rows } = await pool.query<{ n: string }>({
        name: 'history_count',
        text: 'SELECT live_count AS n FROM user_transaction_counts WHERE user_id = $1',
        values: [scope.userId],
      });
      return Number(rows[0]?.n ?? 0);
    }
    const { where, values } = clauses(scope, null, true);
    const { rows } = await pool.query<{ n: string }>(
      named(`SELECT count(*)::text AS n FROM transactions WHERE ${where}`, values),
    );
    return Number(rows[0]?.n ?? 0);
  },
};
