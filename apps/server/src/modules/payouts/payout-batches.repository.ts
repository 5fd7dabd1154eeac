import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { payoutBatches, payoutTransactions } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/**
 * Payout batches and the transactions built for them (`payout_batches`,
 * `payout_transactions`), and what the chain watcher looks for in blocks.
 */

type Db = pg.Pool | pg.PoolClient;

export type BatchRow = RowOf<typeof payoutBatches>;

type CandidateRecord = RowOf<typeof payoutTransactions>;

/** A batch's transaction as the repository gives it: its fee as bigint. */
export type CandidateRow = Omit<CandidateRecord, 'fee_minor'> & { fee_minor: bigint | null };

function candidateOf(row: CandidateRecord): CandidateRow {
  return { ...row, fee_minor: row.fee_minor === null ? null : BigInt(row.fee_minor) };
}

async function candidatesWhere(db: Db, sql: string, values: unknown[]): Promise<CandidateRow[]> {
  const { rows } = await db.query<CandidateRecord>(sql, values);
  return rows.map(candidateOf);
}

/** Candidates that may still confirm. */
const LIVE_CANDIDATE = `state IN ('unsigned', 'broadcast', 'mined')`;

export const payoutBatchesRepository = {
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

  /** Batches whose conflicting spend now has `required` confirmations. */
  async dueConflicts(client: TxClient, chain: string, height: number, required: number) {
    const { rows } = await client.query<BatchRow>(
      `SELECT * FROM payout_batches WHERE chain = $1 AND state IN ('built', 'broadcast')
          AND conflict_height IS NOT NULL AND $2::bigint - conflict_height + 1 >= $3 FOR UPDATE`,
      [chain, height, required],
    );
    return rows;
  },

  // ------------------------------------------------------------------- their transactions

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
    const rows = await candidatesWhere(
      client,
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
    return candidatesWhere(
      db,
      `SELECT * FROM payout_transactions WHERE batch_id = ANY($1::uuid[])
        ORDER BY created_at, nonce NULLS FIRST`,
      [batchIds],
    );
  },

  /** Unsigned and broadcast transactions of a chain, newest first (to find a file's batch). */
  async candidatesOfChain(db: Db, chain: string): Promise<CandidateRow[]> {
    return candidatesWhere(
      db,
      `SELECT * FROM payout_transactions WHERE chain = $1 AND state IN ('unsigned', 'broadcast')
        ORDER BY created_at DESC LIMIT 50`,
      [chain],
    );
  },

  async lockCandidates(client: TxClient, batchId: string): Promise<CandidateRow[]> {
    return candidatesWhere(
      client,
      `SELECT * FROM payout_transactions WHERE batch_id = $1 ORDER BY created_at, nonce NULLS FIRST
        FOR UPDATE`,
      [batchId],
    );
  },

  /** The batch an unsigned or broadcast transaction belongs to, by its hash or its nonce. */
  async batchOfCandidate(
    db: Db,
    chain: string,
    by: { txHash?: string; nonce?: number },
  ): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof payoutTransactions, 'batch_id'>>(
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

  /** The nonces live transactions hold, lowest first, with their state. */
  async liveNonces(db: Db, chain: string): Promise<Array<{ nonce: number; state: string }>> {
    const { rows } = await db.query<{ nonce: number; state: string }>(
      `SELECT nonce, state FROM payout_transactions
        WHERE chain = $1 AND nonce IS NOT NULL AND ${LIVE_CANDIDATE} ORDER BY nonce`,
      [chain],
    );
    return rows;
  },

  /** Live candidates of a chain by hash (for a block's evidence), locked. */
  async lockLiveCandidates(client: TxClient, chain: string): Promise<CandidateRow[]> {
    return candidatesWhere(
      client,
      `SELECT * FROM payout_transactions WHERE chain = $1 AND ${LIVE_CANDIDATE}
        ORDER BY created_at FOR UPDATE`,
      [chain],
    );
  },

  /** Signed transactions not yet mined: re-sent when they vanish from the mempool. */
  async unmined(db: Db, chain: string): Promise<CandidateRow[]> {
    return candidatesWhere(
      db,
      `SELECT t.* FROM payout_transactions t JOIN payout_batches b ON b.id = t.batch_id
        WHERE t.chain = $1 AND t.state = 'broadcast' AND t.signed_hex IS NOT NULL
          AND b.state IN ('broadcast', 'confirming') AND t.conflict_hash IS NULL
        ORDER BY t.nonce NULLS FIRST, t.created_at`,
      [chain],
    );
  },

  async dueNonceConflicts(
    client: TxClient,
    chain: string,
    height: number,
    required: number,
  ): Promise<CandidateRow[]> {
    return candidatesWhere(
      client,
      `SELECT * FROM payout_transactions WHERE chain = $1 AND state IN ('unsigned', 'broadcast')
          AND conflict_height IS NOT NULL AND $2::bigint - conflict_height + 1 >= $3 FOR UPDATE`,
      [chain, height, required],
    );
  },

  /**
   * A reorganisation took blocks above `height` off the chain: their transactions and
   * batches wait again, and conflicts seen in those blocks are forgotten.
   */
  async unconfirmAbove(client: TxClient, chain: string, height: number) {
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
    // A completed batch whose transaction left the chain waits again too: its inputs and
    // nonces are watched for conflicts, and its signed bytes are re-sent.
    await client.query(
      `UPDATE payout_batches b SET updated_at = now(), state = CASE WHEN EXISTS (
            SELECT 1 FROM payout_transactions m WHERE m.batch_id = b.id AND m.state = 'mined')
          THEN 'confirming' ELSE 'broadcast' END
        WHERE b.chain = $1 AND b.state = 'completed' AND EXISTS (
          SELECT 1 FROM payout_transactions t WHERE t.batch_id = b.id AND t.state = 'broadcast')`,
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
  },

  // ------------------------------------------------------------------- the watcher

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
         || (SELECT array_agg(tx_hash) FROM payouts WHERE chain = $1 AND batch_id IS NULL
               AND (state = 'manual' OR (state = 'confirming' AND block_height IS NULL)))
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

  // ------------------------------------------------------------------- ways out (issue 32)

  /**
   * A built batch abandoned by staff: its unsigned transactions are 'abandoned', so their
   * nonces leave the live-nonce index and the next build uses them again.
   */
  async abandonUnsigned(client: TxClient, batchId: string): Promise<number> {
    const { rowCount } = await client.query(
      `UPDATE payout_transactions SET state = 'abandoned' WHERE batch_id = $1 AND state = 'unsigned'`,
      [batchId],
    );
    return rowCount ?? 0;
  },

  /**
   * What the node said to a send: taken (`error` null: the last send is noted and any
   * earlier refusal cleared) or refused, with its words and when.
   */
  async noteSendOutcome(db: Db, id: string, error: string | null) {
    await db.query(
      error === null
        ? `UPDATE payout_transactions SET last_sent_at = now(), send_error = NULL, send_error_at = NULL
            WHERE id = $1`
        : `UPDATE payout_transactions SET send_error = $2, send_error_at = now() WHERE id = $1`,
      error === null ? [id] : [id, error.slice(0, 2000)],
    );
  },

  /** Another live transaction of the chain that holds `nonce`, or null. */
  async liveNonceHolder(
    client: TxClient,
    chain: string,
    nonce: number,
    except: string,
  ): Promise<string | null> {
    const { rows } = await client.query<ColumnsOf<typeof payoutTransactions, 'batch_id'>>(
      `SELECT batch_id FROM payout_transactions
        WHERE chain = $1 AND nonce = $2 AND id <> $3 AND ${LIVE_CANDIDATE} LIMIT 1`,
      [chain, nonce, except],
    );
    return rows[0]?.batch_id ?? null;
  },

  /**
   * A reversed payout's transaction re-sent and taken by the node: live again, waiting to be
   * mined (a conflict seen before no longer holds), and its batch with it.
   */
  async revive(client: TxClient, candidateId: string, batchId: string) {
    await client.query(
      `UPDATE payout_transactions SET state = 'broadcast', block_height = NULL, block_hash = NULL,
          conflict_hash = NULL, conflict_height = NULL WHERE id = $1`,
      [candidateId],
    );
    await client.query(
      `UPDATE payout_batches SET state = 'broadcast', conflict_hash = NULL, conflict_height = NULL,
          updated_at = now() WHERE id = $1`,
      [batchId],
    );
  },

  /**
   * Every unsigned transaction of a new batch in one statement, in the order given (an
   * Ethereum build of 500 payouts wrote 500 INSERTs, one round-trip each: most of the
   * build's database time). Each row as `insertCandidate` writes it.
   */
  async insertCandidates(
    client: TxClient,
    batchId: string,
    chain: string,
    cs: ReadonlyArray<{
      unsigned: string;
      built: unknown;
      nonce: number | null;
      feeMinor: bigint;
      feeRate: number | null;
    }>,
  ): Promise<void> {
    if (cs.length === 0) return;
    const res = await client.query(
      `INSERT INTO payout_transactions (batch_id, chain, unsigned, built, nonce, fee_minor, fee_rate)
       SELECT $1, $2, c.unsigned, c.built, c.nonce, c.fee_minor, c.fee_rate
         FROM unnest($3::text[], $4::jsonb[], $5::int[], $6::numeric[], $7::numeric[])
              WITH ORDINALITY AS c(unsigned, built, nonce, fee_minor, fee_rate, n)
        ORDER BY c.n`,
      [
        batchId,
        chain,
        cs.map((c) => c.unsigned),
        cs.map((c) =>
          JSON.stringify(c.built, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
        ),
        cs.map((c) => c.nonce),
        cs.map((c) => c.feeMinor.toString()),
        cs.map((c) => c.feeRate),
      ],
    );
    if (res.rowCount !== cs.length) throw new Error('the payout transactions were not written');
  },
};
