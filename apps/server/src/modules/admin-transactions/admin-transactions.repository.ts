import { createHash } from 'node:crypto';
import type { TQueueOrder } from '@coffer/shared';
import { type KeyedRow, type Keyset, keysetSql } from '@server/db/keyset';
import type { ColumnsOf } from '@server/db/rows';
import type { bankTransfers, userProfiles, users } from '@server/db/schema/index';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';

type CustomerColumns = ColumnsOf<typeof users, 'email'> &
  ColumnsOf<typeof userProfiles, 'full_name' | 'username'>;

/** What a row of the list shows: the ledger row's figures and state, and its customer. */
export type AdminTransactionListRow = CustomerColumns &
  Pick<
    TransactionRow,
    | 'id'
    | 'user_id'
    | 'transaction_type'
    | 'direction'
    | 'asset_id'
    | 'crypto_amount'
    | 'usd_amount'
    | 'aud_amount'
    | 'exchange_rate'
    | 'currency'
    | 'status'
    | 'transaction_date'
  >;

type BankAccountColumns = ColumnsOf<
  typeof bankTransfers,
  'account_name_encrypted' | 'account_number_encrypted' | 'bsb_number_encrypted' | 'amount_fiat'
> & { bank_currency: ColumnsOf<typeof bankTransfers, 'currency'>['currency'] };

/**
 * A bank transfer's account, encrypted at rest, and the fiat amount it is paid; every
 * column null for a row that is not a bank transfer (the list's LEFT JOIN).
 */
export type BankAccountRow = { [K in keyof BankAccountColumns]: BankAccountColumns[K] | null };

/** A ledger row with its customer and, for a bank transfer, the encrypted account. */
export type AdminTransactionRow = TransactionRow & CustomerColumns & BankAccountRow;

export type ListFilters = {
  status: string | null;
  type: string | null;
  currency: string | null;
  /** `%text%` for ILIKE on name, username and e-mail (wildcards escaped), or null. */
  userPattern: string | null;
  /** Asset ids the search text names ('btc', 'tether'), possibly none. */
  assetIds: string[];
  /** The uuid range an id or id prefix covers, or null. */
  idRange: { low: string; high: string } | null;
  /** From this instant (inclusive) up to that one (exclusive); null ends are open. */
  start?: Date | null;
  end?: Date | null;
  /** For the export's batches: only rows after this one in the list's order. */
  after?: { dateUs: string; id: string } | null;
};

/** The Pending withdrawals queue's search and filters, as the service read them. */
export type PendingFilters = {
  type: 'withdrawal' | 'bank_transfer' | null;
  assetId: string | null;
  /** Crypto withdrawals a second admin approved (a `payouts` row), or those still waiting. */
  approval: 'waiting' | 'approved' | null;
  /** `%text%` for ILIKE on the customer's e-mail and the destination address, or null. */
  pattern: string | null;
  /** An amount the search text is, to match any figure of the payout exactly, or null. */
  amount: string | null;
};

/** The pending queue's conditions, their values appended to `params`. */
function pendingWhere(f: PendingFilters, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts = [
    `t.status = 'pending'`,
    't.deleted_at IS NULL',
    `t.transaction_type IN ('withdrawal', 'bank_transfer')`,
  ];
  if (f.type) parts.push(`t.transaction_type = ${param(f.type)}`);
  if (f.assetId) parts.push(`t.asset_id = ${param(f.assetId)}`);
  if (f.approval) {
    // Only a crypto withdrawal is approved before it is paid; a bank payout never is.
    parts.push(
      `t.transaction_type = 'withdrawal' AND ${f.approval === 'approved' ? '' : 'NOT '}EXISTS (SELECT 1 FROM payouts po WHERE po.transaction_id = t.id)`,
    );
  }
  const matches: string[] = [];
  if (f.pattern) {
    const p = param(f.pattern);
    matches.push(`u.email ILIKE ${p}`, `t.withdrawal_address ILIKE ${p}`);
  }
  if (f.amount) {
    const a = `${param(f.amount)}::numeric`;
    matches.push(
      `t.crypto_amount = ${a}`,
      `t.aud_amount = ${a}`,
      `t.usd_amount = ${a}`,
      `b.amount_fiat = ${a}`,
    );
  }
  if (matches.length > 0) parts.push(`(${matches.join(' OR ')})`);
  return parts.join(' AND ');
}

const DETAIL_COLUMNS = `t.*, u.email, p.full_name, p.username,
  b.account_name_encrypted, b.account_number_encrypted, b.bsb_number_encrypted,
  b.amount_fiat, b.currency AS bank_currency`;

const CUSTOMER_JOINS = `JOIN users u ON u.id = t.user_id
  LEFT JOIN user_profiles p ON p.id = t.user_id`;

const DETAIL_JOINS = `${CUSTOMER_JOINS}
  LEFT JOIN bank_transfers b ON b.transaction_id = t.id`;

const LIST_COLUMNS = `t.id, t.user_id, t.transaction_type, t.direction, t.asset_id,
  t.crypto_amount, t.usd_amount, t.aud_amount, t.exchange_rate, t.currency, t.status,
  t.transaction_date, u.email, p.full_name, p.username,
  -- The date in microseconds: where the export's next batch starts.
  (extract(epoch FROM t.transaction_date) * 1000000)::bigint::text AS date_us`;

/** Newest first, the order of the `transactions_admin_*_idx` indexes. */
// NULLS LAST spelled out as the indexes have it: a plain DESC (NULLS FIRST) does not match
// them, and the planner would sort the whole table instead of reading an index in order.
const ORDER = 'ORDER BY transaction_date DESC NULLS LAST, id DESC NULLS LAST';

export const adminTransactionsRepository = {
  /**
   * One page, newest first, of live rows matching the filters. Each way the search text can
   * match (a customer, an asset, an id) is its own branch that an index answers in date
   * order (the trigram indexes pick the customers, `transactions_user_date_idx` their rows;
   * the primary key the id range; `transactions_admin_*_idx` the rest), each cut at
   * offset + limit rows, so no branch reads more than the page needs; the branches are
   * then merged. An OR over all of them would make PostgreSQL scan every row instead.
   */
  async listPage(
    db: pg.Pool,
    f: ListFilters,
    offset: number,
    limit: number,
  ): Promise<Array<AdminTransactionListRow & { date_us: string }>> {
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    // Every value is read through `(SELECT $n)`, which PostgreSQL evaluates only when the
    // statement runs. With the values in view when planning, it would size each branch
    // from them, find each request's own plan cheaper than the kept generic one, and plan
    // every search afresh (about 4 ms, several times what running it takes).
    const atRun = (value: unknown, type: string) => `(SELECT ${param(value)}::${type})`;
    const base = ['deleted_at IS NULL'];
    if (f.status) base.push(`status = ${atRun(f.status, 'text')}`);
    if (f.type) base.push(`transaction_type = ${atRun(f.type, 'text')}`);
    if (f.currency) base.push(`currency = ${atRun(f.currency, 'text')}`);
    if (f.start) base.push(`transaction_date >= ${atRun(f.start.toISOString(), 'timestamptz')}`);
    if (f.end) base.push(`transaction_date < ${atRun(f.end.toISOString(), 'timestamptz')}`);
    if (f.after) {
      // Newest first: the rows after this one are older, or as old with a smaller id.
      base.push(
        `(transaction_date, id) < ('epoch'::timestamptz + ${atRun(f.after.dateUs, 'bigint')} * interval '1 microsecond', ${atRun(f.after.id, 'uuid')})`,
      );
    }
    const where = base.join(' AND ');
    // Row counts go into the text as numbers (both are integers the route validated): with
    // them as parameters, PostgreSQL's generic plan guesses a tenth of the table and scans
    // it, so it would plan every execution afresh instead.
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(limit)) {
      throw new Error('page bounds must be integers');
    }
    const cut = String(offset + limit);

    let ids: string;
    if (f.userPattern === null) {
      ids = `SELECT id, transaction_date FROM transactions WHERE ${where} ${ORDER} LIMIT ${cut}`;
    } else {
      // The matching customers' newest rows, each from transactions_user_date_idx, then
      // merged: bounded by customers × page. Filtering one date-ordered scan by the
      // customers instead can read a large share of the table when their rows are not the
      // newest.
      const pattern = atRun(f.userPattern, 'text');
      const customerRows = `(SELECT x.id, x.transaction_date
            FROM (SELECT id FROM users WHERE email ILIKE ${pattern}
                  UNION SELECT id FROM user_profiles
                         WHERE full_name ILIKE ${pattern} OR username ILIKE ${pattern}) c
            CROSS JOIN LATERAL (
              SELECT id, transaction_date FROM transactions
               WHERE user_id = c.id AND ${where} ${ORDER} LIMIT ${cut}) x
          ${ORDER} LIMIT ${cut})`;
      const branches = [customerRows];
      if (f.assetIds.length > 0) {
        branches.push(
          `(SELECT id, transaction_date FROM transactions
             WHERE ${where} AND asset_id = ANY(${atRun(f.assetIds, 'text[]')}::text[]) ${ORDER} LIMIT ${cut})`,
        );
      }
      if (f.idRange) {
        // Every row of the id range from the primary key, then sorted: an id prefix has at
        // least 4 hex digits, so the range holds one row in 65,536. OFFSET 0 keeps the plan
        // from reading the date index in order instead, filtering by id, which is what a
        // plan that cannot see the range would pick, and which reads the whole index.
        branches.push(
          `(SELECT id, transaction_date FROM (
              SELECT id, transaction_date FROM transactions
               WHERE ${where} AND id BETWEEN ${atRun(f.idRange.low, 'uuid')} AND ${atRun(f.idRange.high, 'uuid')}
              OFFSET 0) r
             ${ORDER} LIMIT ${cut})`,
        );
      }
      ids = branches.join(' UNION ');
    }
    const text = `WITH page AS (
         SELECT id, transaction_date FROM (${ids}) m ${ORDER}
          LIMIT ${limit} OFFSET ${offset})
       SELECT ${LIST_COLUMNS} FROM page JOIN transactions t ON t.id = page.id ${CUSTOMER_JOINS}
        ORDER BY t.transaction_date DESC NULLS LAST, t.id DESC NULLS LAST`;
    // Planning this query costs several times what running it does. The first page, which
    // the screen shows and refreshes every 30 s, is a named statement per shape of filters
    // (a few dozen at most), planned once per connection; deeper pages, whose offsets are
    // unbounded, are planned each time rather than kept.
    const name =
      offset === 0
        ? `admin_tx_list_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`
        : undefined;
    const { rows } = await db.query<AdminTransactionListRow & { date_us: string }>(
      name ? { name, text, values: params } : { text, values: params },
    );
    return rows;
  },

  /** A live row with its details; `lock` takes the row lock an edit needs first. */
  async findById(
    db: pg.Pool | pg.PoolClient,
    id: string,
    lock = false,
  ): Promise<AdminTransactionRow | null> {
    const { rows } = await db.query<AdminTransactionRow>(
      `SELECT ${DETAIL_COLUMNS} FROM transactions t ${DETAIL_JOINS}
        WHERE t.id = $1 AND t.deleted_at IS NULL${lock ? ' FOR UPDATE OF t' : ''}`,
      [id],
    );
    return rows[0] ?? null;
  },

  /**
   * A page of the payouts waiting for staff (crypto withdrawals and bank transfers), by
   * keyset on (transaction_date, id) in the order asked: the oldest are the most urgent, and
   * `transactions_pending_idx` holds every pending row in date order.
   */
  async pendingPage(
    db: pg.Pool,
    f: PendingFilters,
    page: { order: TQueueOrder; at: Keyset | null; limit: number },
  ): Promise<Array<AdminTransactionRow & KeyedRow>> {
    const params: unknown[] = [];
    const where = pendingWhere(f, params);
    const keyset = keysetSql('t.transaction_date', 't.id', page.order, page.at, params);
    params.push(page.limit + 1);
    const { rows } = await db.query<AdminTransactionRow & KeyedRow>(
      `SELECT ${DETAIL_COLUMNS}, ${keyset.keyUs} AS key_us FROM transactions t ${DETAIL_JOINS}
        WHERE ${where} AND ${keyset.where}
        ${keyset.orderBy} LIMIT $${params.length}`,
      params,
    );
    return rows;
  },

  /** How many payouts wait that match the search and filters. */
  async pendingCount(db: pg.Pool, f: PendingFilters): Promise<number> {
    const params: unknown[] = [];
    const where = pendingWhere(f, params);
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM transactions t ${DETAIL_JOINS} WHERE ${where}`,
      params,
    );
    return Number(rows[0]?.n ?? 0);
  },

  /**
   * A savepoint in the caller's transaction, and the way back to it: a proposal tries its
   * change through the ledger (every check the approval will run) and undoes it.
   */
  async savepoint(client: pg.PoolClient): Promise<void> {
    await client.query('SAVEPOINT proposal_trial');
  },

  async rollbackToSavepoint(client: pg.PoolClient): Promise<void> {
    await client.query('ROLLBACK TO SAVEPOINT proposal_trial');
  },

  /** A customer's e-mail, for a proposal's summary. */
  async emailOf(db: pg.PoolClient, userId: string): Promise<string | null> {
    const { rows } = await db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [
      userId,
    ]);
    return rows[0]?.email ?? null;
  },

  /** Whether a customer exists; the row is share-locked so they cannot vanish meanwhile. */
  async customerExists(client: pg.PoolClient, userId: string): Promise<boolean> {
    const { rows } = await client.query('SELECT 1 FROM users WHERE id = $1 FOR SHARE', [userId]);
    return rows.length > 0;
  },

  /** A bank transfer's account as stored now (for the audit row of a change). */
  async bankAccountOf(db: pg.PoolClient, transactionId: string): Promise<BankAccountRow | null> {
    const { rows } = await db.query<BankAccountRow>(
      `SELECT account_name_encrypted, account_number_encrypted, bsb_number_encrypted,
              amount_fiat, currency AS bank_currency
         FROM bank_transfers WHERE transaction_id = $1`,
      [transactionId],
    );
    return rows[0] ?? null;
  },

  async insertBankTransfer(
    client: pg.PoolClient,
    input: {
      transactionId: string;
      accountNameEncrypted: string;
      accountNumberEncrypted: string;
      bsbNumberEncrypted: string;
      amountFiat: string;
      currency: string;
    },
  ): Promise<void> {
    await client.query(
      `INSERT INTO bank_transfers (transaction_id, account_name_encrypted, account_number_encrypted,
         bsb_number_encrypted, amount_fiat, currency)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (transaction_id) DO UPDATE SET
         account_name_encrypted = EXCLUDED.account_name_encrypted,
         account_number_encrypted = EXCLUDED.account_number_encrypted,
         bsb_number_encrypted = EXCLUDED.bsb_number_encrypted,
         amount_fiat = EXCLUDED.amount_fiat, currency = EXCLUDED.currency`,
      [
        input.transactionId,
        input.accountNameEncrypted,
        input.accountNumberEncrypted,
        input.bsbNumberEncrypted,
        input.amountFiat,
        input.currency,
      ],
    );
  },
};
