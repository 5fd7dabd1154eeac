import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';

/** The database side of payouts on chain (tables in `db/schema/payouts.ts`). */

type Db = pg.Pool | pg.PoolClient;

export type PayoutRow = {
  transaction_id: string;
  chain: string;
  asset_id: string;
  address: string;
  match_key: string;
  amount_minor: string;
  state: string;
  approved_by: string | null;
  approved_at: Date;
  batch_id: string | null;
  tx_hash: string | null;
  output_index: number | null;
  block_height: number | null;
  block_hash: string | null;
  network_fee_minor: string | null;
  waiting_reason: string | null;
  returned_count: number;
};

export type PayoutListRow = PayoutRow & { email: string };

export type BatchRow = {
  id: string;
  chain: string;
  state: string;
  created_by: string | null;
  created_at: Date;
  change_index: number | null;
  conflict_hash: string | null;
  conflict_height: number | null;
};

export type CandidateRow = {
  id: string;
  batch_id: string;
  chain: string;
  state: string;
  tx_hash: string | null;
  unsigned: string;
  built: unknown;
  signed_hex: string | null;
  nonce: number | null;
  fee_minor: string | null;
  fee_rate: string | null;
  replaces: string | null;
  block_height: number | null;
  block_hash: string | null;
  conflict_hash: string | null;
  conflict_height: number | null;
  created_at: Date;
};

export type SpendableRow = {
  tx_hash: string;
  output_index: number;
  amount_minor: string;
  change: 0 | 1;
  derivation_index: number;
};

/** Candidates that may still confirm. */
const LIVE_CANDIDATE = `state IN ('unsigned', 'broadcast', 'mined')`;

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
    const { rows } = await client.query<PayoutRow>(
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
    const { rows } = await db.query<PayoutRow>(
      'SELECT * FROM payouts WHERE transaction_id = ANY($1::uuid[])',
      [transactionIds],
    );
    return rows;
  },

  /** Approved payouts of a chain's assets, oldest approval first, locked for a build. */
  async lockApproved(client: TxClient, chain: string, assets: readonly string[]) {
    const { rows } = await client.query<PayoutRow>(
      `SELECT * FROM payouts WHERE chain = $1 AND state = 'approved' AND asset_id = ANY($2::text[])
        ORDER BY approved_at, transaction_id FOR UPDATE`,
      [chain, assets],
    );
    return rows;
  },

  /** The list the Payouts screen shows: approved ones waiting, and those of recent batches. */
  async listed(db: Db, chain: string, batchIds: string[]): Promise<PayoutListRow[]> {
    const { rows } = await db.query<PayoutListRow>(
      `SELECT p.*, u.email FROM payouts p JOIN transactions t ON t.id = p.transaction_id
         JOIN users u ON u.id = t.user_id
        WHERE p.chain = $1 AND (p.state = 'approved' OR p.batch_id = ANY($2::uuid[]))
        ORDER BY p.approved_at, p.transaction_id`,
      [chain, batchIds],
    );
    return rows;
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

  /** Back to approved, for a new batch: the chain proved its transaction cannot confirm. */
  async returnToApproved(client: TxClient, ids: string[], reason: string) {
    if (ids.length === 0) return;
    await client.query(
      `UPDATE payouts SET state = 'approved', batch_id = NULL, tx_hash = NULL, output_index = NULL,
          block_height = NULL, block_hash = NULL, network_fee_minor = NULL, waiting_reason = $2,
          returned_count = returned_count + 1, updated_at = now()
        WHERE transaction_id = ANY($1::uuid[])`,
      [ids, reason],
    );
  },

  async payoutsOfBatch(client: TxClient, batchId: string): Promise<PayoutRow[]> {
    const { rows } = await client.query<PayoutRow>(
      'SELECT * FROM payouts WHERE batch_id = $1 ORDER BY approved_at, transaction_id FOR UPDATE',
      [batchId],
    );
    return rows;
  },

  /** Payouts staff completed by hash, waiting for the chain to show it, by hash. */
  async manualByHash(client: TxClient, chain: string, hashes: string[]): Promise<PayoutRow[]> {
    if (hashes.length === 0) return [];
    const { rows } = await client.query<PayoutRow>(
      `SELECT * FROM payouts WHERE chain = $1 AND state = 'manual' AND tx_hash = ANY($2::text[])
        FOR UPDATE`,
      [chain, hashes],
    );
    return rows;
  },

  /** Confirming payouts whose block has `required` confirmations at `height`. */
  async dueCompletions(client: TxClient, chain: string, height: number, required: number) {
    const { rows } = await client.query<PayoutRow>(
      `SELECT * FROM payouts WHERE chain = $1 AND state = 'confirming' AND block_height IS NOT NULL
          AND $2::bigint - block_height + 1 >= $3 ORDER BY block_height FOR UPDATE`,
      [chain, height, required],
    );
    return rows;
  },

  /** A reorganisation took blocks above `height` off the chain: their payouts wait again. */
  async unconfirmAbove(client: TxClient, chain: string, height: number) {
    await client.query(
      `UPDATE payouts SET state = CASE WHEN batch_id IS NULL THEN 'manual' ELSE 'broadcast' END,
          block_height = NULL, block_hash = NULL, updated_at = now()
        WHERE chain = $1 AND state = 'confirming' AND block_height > $2`,
      [chain, height],
    );
    await client.query(
      `UPDATE payout_transactions SET state = 'broadcast', block_height = NULL, block_hash = NULL
        WHERE chain = $1 AND state = 'mined' AND block_height > $2`,
      [chain, height],
    );
    // A fee bump's other candidates may confirm again once none of the batch is mined.
    await client.query(
      `UPDATE payout_transactions t SET state = 'broadcast'
        WHERE t.chain = $1 AND t.state = 'replaced' AND NOT EXISTS (
          SELECT 1 FROM payout_transactions m WHERE m.batch_id = t.batch_id AND m.state = 'mined')`,
      [chain],
    );
    await client.query(
      `UPDATE payout_batches SET state = 'broadcast', updated_at = now()
        WHERE chain = $1 AND state = 'confirming' AND NOT EXISTS (
          SELECT 1 FROM payout_transactions t WHERE t.batch_id = payout_batches.id AND t.state = 'mined')`,
      [chain],
    );
    await client.query(
      `UPDATE payout_batches SET conflict_hash = NULL, conflict_height = NULL
        WHERE chain = $1 AND conflict_height > $2`,
      [chain, height],
    );
    await client.query(
      `UPDATE payout_transactions SET conflict_hash = NULL, conflict_height = NULL
        WHERE chain = $1 AND conflict_height > $2`,
      [chain, height],
    );
    await client.query(
      `DELETE FROM payout_change_outputs WHERE block_height > $1 AND $2 = 'bitcoin'`,
      [height, chain],
    );
  },

  // ------------------------------------------------------------------- batches

  async lockBuild(client: TxClient, chain: string) {
    // One build per chain at a time: two never take the same payouts, outputs or nonces.
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `payouts-build:${chain}`,
    ]);
  },

  async insertBatch(
    client: TxClient,
    b: { chain: string; createdBy: string | null; changeIndex: number | null },
  ): Promise<BatchRow> {
    const { rows } = await client.query<BatchRow>(
      `INSERT INTO payout_batches (chain, created_by, change_index) VALUES ($1, $2, $3) RETURNING *`,
      [b.chain, b.createdBy, b.changeIndex],
    );
    const row = rows[0];
    if (!row) throw new Error('the batch was not written');
    return row;
  },

  async lockBatch(client: TxClient, id: string): Promise<BatchRow | null> {
    const { rows } = await client.query<BatchRow>(
      'SELECT * FROM payout_batches WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows[0] ?? null;
  },

  async batch(db: Db, id: string): Promise<BatchRow | null> {
    const { rows } = await db.query<BatchRow>('SELECT * FROM payout_batches WHERE id = $1', [id]);
    return rows[0] ?? null;
  },

  async recentBatches(db: Db, chain: string, limit: number): Promise<BatchRow[]> {
    const { rows } = await db.query<BatchRow>(
      `SELECT * FROM payout_batches WHERE chain = $1
        ORDER BY (state IN ('completed', 'abandoned')), created_at DESC LIMIT $2`,
      [chain, limit],
    );
    return rows;
  },

  async setBatchState(client: TxClient, id: string, state: string) {
    await client.query('UPDATE payout_batches SET state = $2, updated_at = now() WHERE id = $1', [
      id,
      state,
    ]);
  },

  async setBatchConflict(client: TxClient, id: string, hash: string, height: number) {
    await client.query(
      `UPDATE payout_batches SET conflict_hash = $2, conflict_height = $3, updated_at = now()
        WHERE id = $1 AND conflict_hash IS NULL`,
      [id, hash, height],
    );
  },

  async insertCandidate(
    client: TxClient,
    c: {
      batchId: string;
      chain: string;
      txHash: string | null;
      unsigned: string;
      built: unknown;
      nonce: number | null;
      feeMinor: bigint;
      feeRate: number | null;
      replaces: string | null;
    },
  ): Promise<CandidateRow> {
    const { rows } = await client.query<CandidateRow>(
      `INSERT INTO payout_transactions (batch_id, chain, tx_hash, unsigned, built, nonce, fee_minor, fee_rate, replaces)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [
        c.batchId,
        c.chain,
        c.txHash,
        c.unsigned,
        JSON.stringify(c.built, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
        c.nonce,
        c.feeMinor.toString(),
        c.feeRate,
        c.replaces,
      ],
    );
    const row = rows[0];
    if (!row) throw new Error('the payout transaction was not written');
    return row;
  },

  async candidatesOf(db: Db, batchIds: string[]): Promise<CandidateRow[]> {
    if (batchIds.length === 0) return [];
    const { rows } = await db.query<CandidateRow>(
      `SELECT * FROM payout_transactions WHERE batch_id = ANY($1::uuid[])
        ORDER BY created_at, nonce NULLS FIRST`,
      [batchIds],
    );
    return rows;
  },

  /** Unsigned and broadcast transactions of a chain, newest first (to find a file's batch). */
  async candidatesOfChain(db: Db, chain: string): Promise<CandidateRow[]> {
    const { rows } = await db.query<CandidateRow>(
      `SELECT * FROM payout_transactions WHERE chain = $1 AND state IN ('unsigned', 'broadcast')
        ORDER BY created_at DESC LIMIT 50`,
      [chain],
    );
    return rows;
  },

  async lockCandidates(client: TxClient, batchId: string): Promise<CandidateRow[]> {
    const { rows } = await client.query<CandidateRow>(
      `SELECT * FROM payout_transactions WHERE batch_id = $1 ORDER BY created_at, nonce NULLS FIRST
        FOR UPDATE`,
      [batchId],
    );
    return rows;
  },

  /** The batch an unsigned or broadcast transaction belongs to, by its hash or its nonce. */
  async batchOfCandidate(
    db: Db,
    chain: string,
    by: { txHash?: string; nonce?: number },
  ): Promise<string | null> {
    const { rows } = await db.query<{ batch_id: string }>(
      `SELECT batch_id FROM payout_transactions
        WHERE chain = $1 AND state IN ('unsigned', 'broadcast')
          AND (tx_hash = $2 OR nonce = $3) LIMIT 1`,
      [chain, by.txHash ?? null, by.nonce ?? null],
    );
    return rows[0]?.batch_id ?? null;
  },

  async recordSigned(client: TxClient, id: string, txHash: string, signedHex: string) {
    await client.query(
      `UPDATE payout_transactions SET state = 'broadcast', tx_hash = $2, signed_hex = $3,
          broadcast_at = now() WHERE id = $1 AND state = 'unsigned'`,
      [id, txHash, signedHex],
    );
  },

  async noteSent(db: Db, id: string) {
    await db.query('UPDATE payout_transactions SET last_sent_at = now() WHERE id = $1', [id]);
  },

  async setCandidateState(
    client: TxClient,
    id: string,
    state: string,
    block: { height: number; hash: string } | null = null,
  ) {
    await client.query(
      `UPDATE payout_transactions SET state = $2, block_height = $3, block_hash = $4 WHERE id = $1`,
      [id, state, block?.height ?? null, block?.hash ?? null],
    );
  },

  async setCandidateConflict(client: TxClient, id: string, hash: string, height: number) {
    await client.query(
      `UPDATE payout_transactions SET conflict_hash = $2, conflict_height = $3
        WHERE id = $1 AND conflict_hash IS NULL`,
      [id, hash, height],
    );
  },

  /** The highest nonce a live transaction holds, or null. */
  async highestLiveNonce(client: TxClient, chain: string): Promise<number | null> {
    const { rows } = await client.query<{ n: number | null }>(
      `SELECT max(nonce) AS n FROM payout_transactions WHERE chain = $1 AND ${LIVE_CANDIDATE}`,
      [chain],
    );
    return rows[0]?.n ?? null;
  },

  /** What the watcher looks for in a chain's blocks: hashes, reserved outputs. */
  async watchSet(
    db: Db,
    chain: string,
  ): Promise<{ hashes: string[]; outpoints: string[]; unsent: boolean }> {
    const { rows } = await db.query<{
      hashes: string[] | null;
      outpoints: string[] | null;
      unsent: boolean;
    }>(
      `SELECT
         EXISTS (SELECT 1 FROM payout_transactions WHERE chain = $1 AND state = 'unsigned') AS unsent,
         (SELECT array_agg(tx_hash) FROM payout_transactions
           WHERE chain = $1 AND tx_hash IS NOT NULL AND (state IN ('unsigned', 'broadcast')
             -- A mined one is watched while its batch may still be reorganised away.
             OR (state = 'mined' AND batch_id IN (
               SELECT id FROM payout_batches WHERE chain = $1 AND state = 'confirming'))))
         || (SELECT array_agg(tx_hash) FROM payouts WHERE chain = $1 AND state = 'manual')
           AS hashes,
         (SELECT array_agg(i.tx_hash || ':' || i.output_index) FROM payout_inputs i
            JOIN payout_batches b ON b.id = i.batch_id
           WHERE i.chain = $1 AND b.state IN ('built', 'broadcast', 'confirming')) AS outpoints`,
      [chain],
    );
    return {
      hashes: rows[0]?.hashes ?? [],
      outpoints: rows[0]?.outpoints ?? [],
      unsent: rows[0]?.unsent ?? false,
    };
  },

  /** Live candidates of a chain by hash (for a block's evidence), locked. */
  async lockLiveCandidates(client: TxClient, chain: string): Promise<CandidateRow[]> {
    const { rows } = await client.query<CandidateRow>(
      `SELECT * FROM payout_transactions WHERE chain = $1 AND ${LIVE_CANDIDATE}
        ORDER BY created_at FOR UPDATE`,
      [chain],
    );
    return rows;
  },

  /** Signed transactions not yet mined: re-sent when they vanish from the mempool. */
  async unmined(db: Db, chain: string): Promise<CandidateRow[]> {
    const { rows } = await db.query<CandidateRow>(
      `SELECT t.* FROM payout_transactions t JOIN payout_batches b ON b.id = t.batch_id
        WHERE t.chain = $1 AND t.state = 'broadcast' AND t.signed_hex IS NOT NULL
          AND b.state IN ('broadcast', 'confirming') AND t.conflict_hash IS NULL
        ORDER BY t.nonce NULLS FIRST, t.created_at`,
      [chain],
    );
    return rows;
  },

  /** Batches whose conflicting spend now has `required` confirmations. */
  async dueConflicts(client: TxClient, chain: string, height: number, required: number) {
    const { rows } = await client.query<BatchRow>(
      `SELECT * FROM payout_batches WHERE chain = $1 AND state IN ('built', 'broadcast')
          AND conflict_height IS NOT NULL AND $2::bigint - conflict_height + 1 >= $3 FOR UPDATE`,
      [chain, height, required],
    );
    return rows;
  },

  async dueNonceConflicts(client: TxClient, chain: string, height: number, required: number) {
    const { rows } = await client.query<CandidateRow>(
      `SELECT * FROM payout_transactions WHERE chain = $1 AND state IN ('unsigned', 'broadcast')
          AND conflict_height IS NOT NULL AND $2::bigint - conflict_height + 1 >= $3 FOR UPDATE`,
      [chain, height, required],
    );
    return rows;
  },

  // ------------------------------------------------------------------- Bitcoin outputs

  async reserveInputs(
    client: TxClient,
    batchId: string,
    inputs: Array<{ txid: string; vout: number; amount: bigint }>,
  ) {
    await client.query(
      `INSERT INTO payout_inputs (chain, tx_hash, output_index, batch_id, amount_minor)
       SELECT 'bitcoin', h, o, $1, a FROM unnest($2::text[], $3::int[], $4::numeric[]) AS x(h, o, a)`,
      [
        batchId,
        inputs.map((i) => i.txid),
        inputs.map((i) => i.vout),
        inputs.map((i) => i.amount.toString()),
      ],
    );
  },

  /** The batches that reserved any of these outputs (`txid:vout`). */
  async batchesSpending(client: TxClient, outpoints: string[]): Promise<string[]> {
    if (outpoints.length === 0) return [];
    const { rows } = await client.query<{ batch_id: string }>(
      `SELECT DISTINCT batch_id FROM payout_inputs
        WHERE chain = 'bitcoin' AND tx_hash || ':' || output_index = ANY($1::text[])`,
      [outpoints],
    );
    return rows.map((r) => r.batch_id);
  },

  async releaseInputs(client: TxClient, batchId: string) {
    await client.query('DELETE FROM payout_inputs WHERE batch_id = $1', [batchId]);
  },

  /**
   * Outputs Coffer may spend, oldest first: credited deposits to derived addresses
   * (account/0/i) and the change of mined batches (account/1/i), none reserved by a batch.
   */
  async spendable(db: Db): Promise<SpendableRow[]> {
    const { rows } = await db.query<SpendableRow>(
      `SELECT * FROM (
         SELECT d.tx_hash, d.output_index, d.amount_minor::text AS amount_minor, 0 AS change,
                a.derivation_index, d.first_seen_at AS at
           FROM chain_deposits d
           JOIN deposit_addresses a ON a.chain = 'bitcoin' AND a.address = d.address
                AND a.derivation_index IS NOT NULL
          WHERE d.chain = 'bitcoin' AND d.status = 'credited'
         UNION ALL
         SELECT c.tx_hash, c.output_index, c.amount_minor::text, 1, c.derivation_index, c.created_at
           FROM payout_change_outputs c WHERE c.block_height IS NOT NULL
       ) o
       WHERE NOT EXISTS (SELECT 1 FROM payout_inputs i
                          WHERE i.chain = 'bitcoin' AND i.tx_hash = o.tx_hash AND i.output_index = o.output_index)
       ORDER BY at, tx_hash, output_index`,
    );
    return rows;
  },

  async insertChange(
    client: TxClient,
    c: {
      txHash: string;
      outputIndex: number;
      derivationIndex: number;
      amountMinor: bigint;
      script: string;
      blockHeight: number;
    },
  ) {
    await client.query(
      `INSERT INTO payout_change_outputs (tx_hash, output_index, derivation_index, amount_minor, script, block_height)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tx_hash, output_index) DO UPDATE SET block_height = EXCLUDED.block_height`,
      [
        c.txHash,
        c.outputIndex,
        c.derivationIndex,
        c.amountMinor.toString(),
        c.script,
        c.blockHeight,
      ],
    );
  },

  /** The next index on the Bitcoin internal chain (account/1/i), never handed out twice. */
  async nextChangeIndex(client: TxClient): Promise<number> {
    const { rows } = await client.query<{ next_index: number }>(
      `INSERT INTO chain_address_counters (chain, next_index) VALUES ('bitcoin-change', 1)
       ON CONFLICT (chain) DO UPDATE SET next_index = chain_address_counters.next_index + 1
       RETURNING next_index - 1 AS next_index`,
    );
    return rows[0]?.next_index ?? 0;
  },

  /** The hashes of the recent blocks the watcher checked, newest first. */
  async recentBlockHashes(db: Db, chain: string): Promise<string[]> {
    const { rows } = await db.query<{ block_hash: string }>(
      'SELECT block_hash FROM chain_blocks WHERE chain = $1 ORDER BY height DESC',
      [chain],
    );
    return rows.map((r) => r.block_hash);
  },

  async cursorHeight(db: Db, chain: string): Promise<number | null> {
    const { rows } = await db.query<{ height: number }>(
      'SELECT height FROM chain_cursors WHERE chain = $1',
      [chain],
    );
    return rows[0]?.height ?? null;
  },
};
