import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { chainBlocks, chainCursors, payouts, users } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';

/**
 * The database side of payouts on chain (tables in `db/schema/payouts.ts`), by concern:
 * each payout's state here, batches and their transactions in `payout-batches.repository.ts`,
 * Bitcoin's reserved inputs and change outputs in `payout-outputs.repository.ts`.
 */

type Db = pg.Pool | pg.PoolClient;

type PayoutRecord = RowOf<typeof payouts>;

/**
 * A payout as the repository gives it: the schema's row, with its amounts as bigint and its
 * block height as a number (the driver gives numeric and int8 as strings).
 */
export type PayoutRow = Omit<
  PayoutRecord,
  'amount_minor' | 'network_fee_minor' | 'block_height'
> & {
  amount_minor: bigint;
  network_fee_minor: bigint | null;
  block_height: number | null;
};

export type PayoutListRow = PayoutRow & ColumnsOf<typeof users, 'email'>;

function payoutOf<R extends PayoutRecord>(
  row: R,
): Omit<R, 'amount_minor' | 'network_fee_minor' | 'block_height'> & PayoutRow {
  return {
    ...row,
    amount_minor: BigInt(row.amount_minor),
    network_fee_minor: row.network_fee_minor === null ? null : BigInt(row.network_fee_minor),
    block_height: row.block_height === null ? null : Number(row.block_height),
  };
}

async function payoutsWhere(db: Db, sql: string, values: unknown[]): Promise<PayoutRow[]> {
  const { rows } = await db.query<PayoutRecord>(sql, values);
  return rows.map(payoutOf);
}

export const payoutsRepository = {
  async insertPayout(
    client: TxClient,
    p: {
      transactionId: string;
      chain: string;
      assetId: string;
      address: string;
      matchKey: string;
      amountMinor: bigint;
      approvedBy: string;
    },
  ): Promise<void> {
    await client.query(
      `INSERT INTO payouts (transaction_id, chain, asset_id, address, match_key, amount_minor, approved_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        p.transactionId,
        p.chain,
        p.assetId,
        p.address,
        p.matchKey,
        p.amountMinor.toString(),
        p.approvedBy,
      ],
    );
  },

  /** A withdrawal's ledger row (crypto or bank), locked for its approval or completion. */
  async lockWithdrawal(client: TxClient, id: string): Promise<TransactionRow | null> {
    const { rows } = await client.query<TransactionRow>(
      `SELECT * FROM transactions WHERE id = $1 AND transaction_type IN ('withdrawal', 'bank_transfer')
          AND deleted_at IS NULL FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  },

  async lockPayout(client: TxClient, transactionId: string): Promise<PayoutRow | null> {
    const rows = await payoutsWhere(
      client,
      'SELECT * FROM payouts WHERE transaction_id = $1 FOR UPDATE',
      [transactionId],
    );
    return rows[0] ?? null;
  },

  /** Drops an approval no batch has taken: the withdrawal was rejected. */
  async dropApproved(client: TxClient, transactionId: string): Promise<void> {
    await client.query("DELETE FROM payouts WHERE transaction_id = $1 AND state = 'approved'", [
      transactionId,
    ]);
  },

  async payoutsOf(db: Db, transactionIds: string[]): Promise<PayoutRow[]> {
    if (transactionIds.length === 0) return [];
    return payoutsWhere(db, 'SELECT * FROM payouts WHERE transaction_id = ANY($1::uuid[])', [
      transactionIds,
    ]);
  },

  /**
   * Payouts that name `hash` on `chain` as their transaction (a claimed output, or a typed
   * hash not yet seen), but not `except`: one chain output settles one payout.
   */
  async claimsOfHash(
    db: Db,
    chain: string,
    hash: string,
    except: string,
  ): Promise<Array<{ transaction_id: string; output_index: number | null; state: string }>> {
    const { rows } = await db.query<{
      transaction_id: string;
      output_index: number | null;
      state: string;
    }>(
      `SELECT transaction_id, output_index, state FROM payouts
        WHERE chain = $1 AND tx_hash = $2 AND transaction_id <> $3 ORDER BY approved_at`,
      [chain, hash, except],
    );
    return rows;
  },

  /** Coffer's own payout transaction with this hash, and the payouts its batch pays. */
  async ownTransaction(
    db: Db,
    chain: string,
    hash: string,
  ): Promise<{ batch_id: string; payouts: string[] } | null> {
    const { rows } = await db.query<{ batch_id: string; payouts: string[] }>(
      `SELECT t.batch_id, COALESCE(array_agg(p.transaction_id ORDER BY p.approved_at)
                FILTER (WHERE p.transaction_id IS NOT NULL), '{}') AS payouts
         FROM payout_transactions t LEFT JOIN payouts p ON p.batch_id = t.batch_id
        WHERE t.chain = $1 AND t.tx_hash = $2
        GROUP BY t.batch_id LIMIT 1`,
      [chain, hash],
    );
    return rows[0] ?? null;
  },

  /** Staff typed the payout's hash now: a 'manual' payout expires from here. */
  async markTyped(client: TxClient, transactionId: string): Promise<void> {
    await client.query('UPDATE payouts SET typed_at = now() WHERE transaction_id = $1', [
      transactionId,
    ]);
  },

  /** The ledger row was completed: kept through reorganisations, never cleared. */
  async markCompleted(client: TxClient, transactionId: string): Promise<void> {
    await client.query(
      'UPDATE payouts SET completed_at = COALESCE(completed_at, now()) WHERE transaction_id = $1',
      [transactionId],
    );
  },

  /** Approved payouts of a chain's assets, oldest approval first, locked for a build. */
  async lockApproved(
    client: TxClient,
    chain: string,
    assets: readonly string[],
  ): Promise<PayoutRow[]> {
    return payoutsWhere(
      client,
      `SELECT * FROM payouts WHERE chain = $1 AND state = 'approved' AND asset_id = ANY($2::text[])
        ORDER BY approved_at, transaction_id FOR UPDATE`,
      [chain, assets],
    );
  },

  /** The list the Payouts screen shows: approved ones waiting, and those of recent batches. */
  async listed(db: Db, chain: string, batchIds: string[]): Promise<PayoutListRow[]> {
    const { rows } = await db.query<PayoutRecord & ColumnsOf<typeof users, 'email'>>(
      `SELECT p.*, u.email FROM payouts p JOIN transactions t ON t.id = p.transaction_id
         JOIN users u ON u.id = t.user_id
        WHERE p.chain = $1 AND (p.state = 'approved' OR p.batch_id = ANY($2::uuid[]))
        ORDER BY p.approved_at, p.transaction_id`,
      [chain, batchIds],
    );
    return rows.map(payoutOf);
  },

  async setWaitingReasons(client: TxClient, reasons: Array<{ id: string; reason: string | null }>) {
    if (reasons.length === 0) return;
    await client.query(
      `UPDATE payouts p SET waiting_reason = r.reason, updated_at = now()
         FROM unnest($1::uuid[], $2::text[]) AS r(id, reason) WHERE p.transaction_id = r.id`,
      [reasons.map((r) => r.id), reasons.map((r) => r.reason)],
    );
  },

  async putInBatch(client: TxClient, batchId: string, ids: string[]) {
    await client.query(
      `UPDATE payouts SET state = 'in-batch', batch_id = $1, waiting_reason = NULL, updated_at = now()
        WHERE transaction_id = ANY($2::uuid[]) AND state = 'approved'`,
      [batchId, ids],
    );
  },

  async setPayoutState(
    client: TxClient,
    id: string,
    change: {
      state: string;
      txHash?: string | null;
      outputIndex?: number | null;
      block?: { height: number; hash: string } | null;
      networkFeeMinor?: bigint | null;
    },
  ) {
    await client.query(
      `UPDATE payouts SET state = $2,
          tx_hash = CASE WHEN $3 THEN $4 ELSE tx_hash END,
          output_index = CASE WHEN $5 THEN $6::int ELSE output_index END,
          block_height = CASE WHEN $7 THEN $8::bigint ELSE block_height END,
          block_hash = CASE WHEN $7 THEN $9 ELSE block_hash END,
          network_fee_minor = CASE WHEN $10 THEN $11::numeric ELSE network_fee_minor END,
          updated_at = now()
        WHERE transaction_id = $1`,
      [
        id,
        change.state,
        change.txHash !== undefined,
        change.txHash ?? null,
        change.outputIndex !== undefined,
        change.outputIndex ?? null,
        change.block !== undefined,
        change.block?.height ?? null,
        change.block?.hash ?? null,
        change.networkFeeMinor !== undefined,
        change.networkFeeMinor?.toString() ?? null,
      ],
    );
  },

  /**
   * Back to approved, for a new batch: the chain proved its transaction cannot confirm. Only
   * a payout never completed moves (one whose ledger row was completed is never paid again
   * by Coffer alone: see `setReversedOnChain`); the ids that moved.
   */
  async returnToApproved(client: TxClient, ids: string[], reason: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await client.query<{ transaction_id: string }>(
      `UPDATE payouts SET state = 'approved', batch_id = NULL, tx_hash = NULL, output_index = NULL,
          block_height = NULL, block_hash = NULL, network_fee_minor = NULL, waiting_reason = $2,
          returned_count = returned_count + 1, updated_at = now()
        WHERE transaction_id = ANY($1::uuid[]) AND completed_at IS NULL
        RETURNING transaction_id`,
      [ids, reason],
    );
    return rows.map((r) => r.transaction_id);
  },

  /**
   * Completed payouts whose transaction can no longer confirm (its inputs or nonce used by
   * another, or reverted): flagged for staff, who re-send its signed bytes or return it.
   * Its batch and transaction are kept (what staff re-send); the ids that moved.
   */
  async setReversedOnChain(client: TxClient, ids: string[], reason: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await client.query<{ transaction_id: string }>(
      `UPDATE payouts SET state = 'reversed-on-chain', block_height = NULL, block_hash = NULL,
          waiting_reason = $2, updated_at = now()
        WHERE transaction_id = ANY($1::uuid[]) AND completed_at IS NOT NULL
          AND state <> 'reversed-on-chain'
        RETURNING transaction_id`,
      [ids, reason],
    );
    return rows.map((r) => r.transaction_id);
  },

  /** A chain's payouts flagged 'reversed-on-chain', oldest first: staff see them first. */
  async reversedOnChain(db: Db, chain: string): Promise<PayoutListRow[]> {
    const { rows } = await db.query<PayoutRecord & ColumnsOf<typeof users, 'email'>>(
      `SELECT p.*, u.email FROM payouts p JOIN transactions t ON t.id = p.transaction_id
         JOIN users u ON u.id = t.user_id
        WHERE p.chain = $1 AND p.state = 'reversed-on-chain'
        ORDER BY p.updated_at, p.transaction_id`,
      [chain],
    );
    return rows.map(payoutOf);
  },

  /**
   * The e-mails of the staff told when a completed payout leaves the chain: every holder of
   * one of `roles` (those who approve payouts, and owners).
   */
  async staffEmailsWithRoles(db: Db, roles: readonly string[]): Promise<string[]> {
    const { rows } = await db.query<{ email: string }>(
      `SELECT u.email FROM admin_users a JOIN users u ON u.id = a.user_id
        WHERE a.roles && $1::text[] ORDER BY u.email`,
      [roles],
    );
    return rows.map((r) => r.email);
  },

  /**
   * The outputs of a transaction that payouts hold (one output settles one payout): output
   * index → payout.
   */
  async claimedOutputs(
    client: TxClient,
    chain: string,
    hash: string,
  ): Promise<Map<number, string>> {
    const { rows } = await client.query<{ transaction_id: string; output_index: number }>(
      `SELECT transaction_id, output_index FROM payouts
        WHERE chain = $1 AND tx_hash = $2 AND output_index IS NOT NULL`,
      [chain, hash],
    );
    return new Map(rows.map((r) => [r.output_index, r.transaction_id]));
  },

  /**
   * A savepoint of the block's transaction around one payout's settlement: `begin`, then
   * `release` when it went through, or `undo` (rolled back and released) when it failed.
   */
  async savepoint(client: TxClient, step: 'begin' | 'release' | 'undo'): Promise<void> {
    if (step === 'begin') await client.query('SAVEPOINT payout_settlement');
    if (step === 'undo') await client.query('ROLLBACK TO SAVEPOINT payout_settlement');
    if (step !== 'begin') await client.query('RELEASE SAVEPOINT payout_settlement');
  },

  /**
   * Typed hashes the chain has not shown within `hours` of being typed ('manual', never
   * completed), locked: they return to approved.
   */
  async expiredTyped(client: TxClient, chain: string, hours: number): Promise<PayoutRow[]> {
    return payoutsWhere(
      client,
      `SELECT * FROM payouts WHERE chain = $1 AND state = 'manual' AND completed_at IS NULL
          AND typed_at IS NOT NULL AND typed_at < now() - make_interval(hours => $2)
        ORDER BY typed_at, transaction_id FOR UPDATE`,
      [chain, hours],
    );
  },

  async payoutsOfBatch(client: TxClient, batchId: string): Promise<PayoutRow[]> {
    return payoutsWhere(
      client,
      'SELECT * FROM payouts WHERE batch_id = $1 ORDER BY approved_at, transaction_id FOR UPDATE',
      [batchId],
    );
  },

  /**
   * Payouts staff completed by hash, waiting for the chain to show it, by hash: typed and
   * not yet seen ('manual'), or completed and then taken off the chain by a reorganisation
   * ('confirming' with no block). Those already holding an output come first.
   */
  async manualByHash(client: TxClient, chain: string, hashes: string[]): Promise<PayoutRow[]> {
    if (hashes.length === 0) return [];
    return payoutsWhere(
      client,
      `SELECT * FROM payouts WHERE chain = $1 AND tx_hash = ANY($2::text[]) AND batch_id IS NULL
          AND (state = 'manual' OR (state = 'confirming' AND block_height IS NULL))
        ORDER BY output_index NULLS LAST, approved_at, transaction_id FOR UPDATE`,
      [chain, hashes],
    );
  },

  /** Confirming payouts whose block has `required` confirmations at `height`. */
  async dueCompletions(
    client: TxClient,
    chain: string,
    height: number,
    required: number,
  ): Promise<PayoutRow[]> {
    return payoutsWhere(
      client,
      `SELECT * FROM payouts WHERE chain = $1 AND state = 'confirming' AND block_height IS NOT NULL
          AND $2::bigint - block_height + 1 >= $3 ORDER BY block_height FOR UPDATE`,
      [chain, height, required],
    );
  },

  /**
   * A reorganisation took blocks above `height` off the chain: their payouts wait again. A
   * completed one is 'confirming' again (its ledger row stays completed and is not touched
   * when its transaction is mined again); the others wait as sent ('broadcast') or typed.
   */
  async unconfirmAbove(client: TxClient, chain: string, height: number) {
    await client.query(
      `UPDATE payouts SET state = CASE WHEN completed_at IS NOT NULL THEN 'confirming'
            WHEN batch_id IS NULL THEN 'manual' ELSE 'broadcast' END,
          block_height = NULL, block_hash = NULL, updated_at = now()
        WHERE chain = $1 AND state IN ('confirming', 'completed') AND block_height > $2`,
      [chain, height],
    );
  },

  // ------------------------------------------------------------------- the chain as watched

  /** The hashes of the recent blocks the watcher checked, newest first. */
  async recentBlockHashes(db: Db, chain: string): Promise<string[]> {
    const { rows } = await db.query<ColumnsOf<typeof chainBlocks, 'block_hash'>>(
      'SELECT block_hash FROM chain_blocks WHERE chain = $1 ORDER BY height DESC',
      [chain],
    );
    return rows.map((r) => r.block_hash);
  },

  /** The height of the last block the chain's watcher processed, or null before its first. */
  async cursorHeight(db: Db, chain: string): Promise<number | null> {
    const { rows } = await db.query<ColumnsOf<typeof chainCursors, 'height'>>(
      'SELECT height FROM chain_cursors WHERE chain = $1',
      [chain],
    );
    const height = rows[0]?.height;
    return height === undefined ? null : Number(height);
  },

  // ------------------------------------------------------------------- ways out (issue 32)

  /**
   * Payouts completed and then reversed on chain (their transaction left it for good), with
   * the customer's e-mail, oldest approval first: the Payouts screen shows them first.
   */
  async reversedOnChainRows(db: Db, chain: string): Promise<PayoutListRow[]> {
    const { rows } = await db.query<PayoutRecord & ColumnsOf<typeof users, 'email'>>(
      `SELECT p.*, u.email FROM payouts p JOIN transactions t ON t.id = p.transaction_id
         JOIN users u ON u.id = t.user_id
        WHERE p.chain = $1 AND p.state = 'reversed-on-chain'
        ORDER BY p.approved_at, p.transaction_id`,
      [chain],
    );
    return rows.map(payoutOf);
  },

  /**
   * A built batch staff abandoned before anyone signed it: its payouts are approved again,
   * for the next build. Not the chain's doing, so `returned_count` stays.
   */
  async returnAbandoned(client: TxClient, batchId: string, reason: string): Promise<string[]> {
    const { rows } = await client.query<{ transaction_id: string }>(
      `UPDATE payouts SET state = 'approved', batch_id = NULL, tx_hash = NULL, output_index = NULL,
          block_height = NULL, block_hash = NULL, network_fee_minor = NULL, waiting_reason = $2,
          updated_at = now()
        WHERE batch_id = $1 AND state = 'in-batch' RETURNING transaction_id`,
      [batchId, reason],
    );
    return rows.map((r) => r.transaction_id);
  },

  /**
   * A reversed payout approved again by two staff: paid in the next batch. `completed_at`
   * stays: its ledger row is already completed, so settling the new payment leaves the
   * ledger alone.
   */
  async returnReversed(client: TxClient, id: string, reason: string): Promise<boolean> {
    const { rowCount } = await client.query(
      `UPDATE payouts SET state = 'approved', batch_id = NULL, tx_hash = NULL, output_index = NULL,
          block_height = NULL, block_hash = NULL, network_fee_minor = NULL, waiting_reason = $2,
          returned_count = returned_count + 1, updated_at = now()
        WHERE transaction_id = $1 AND state = 'reversed-on-chain'`,
      [id, reason],
    );
    return rowCount === 1;
  },

  /** Reversed payouts whose signed transaction the node took again: broadcast, waiting to be mined. */
  async resentReversed(client: TxClient, ids: string[], txHash: string) {
    if (ids.length === 0) return;
    await client.query(
      `UPDATE payouts SET state = 'broadcast', tx_hash = $2, block_height = NULL, block_hash = NULL,
          waiting_reason = NULL, updated_at = now()
        WHERE transaction_id = ANY($1::uuid[]) AND state = 'reversed-on-chain'`,
      [ids, txHash],
    );
  },
};
