import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { ChainName } from './chain-adapter';

export type CursorRow = {
  chain: string;
  height: number;
  block_hash: string;
  node_tip: number | null;
  last_block_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  updated_at: Date;
};

export type StoredBlock = { height: number; block_hash: string; parent_hash: string };

export type ChainDepositRow = {
  id: string;
  chain: string;
  tx_hash: string;
  output_index: number;
  address: string;
  user_id: string;
  asset_id: string;
  amount_minor: string;
  block_height: number;
  block_hash: string;
  confirmations: number;
  status: 'confirming' | 'credited' | 'orphaned' | 'reversed-on-chain';
  transaction_id: string | null;
};

const num = (v: unknown): number => Number(v);

function cursorOf(row: Record<string, unknown>): CursorRow {
  return {
    ...(row as CursorRow),
    height: num(row.height),
    node_tip: row.node_tip == null ? null : num(row.node_tip),
  };
}

function depositOf(row: Record<string, unknown>): ChainDepositRow {
  return { ...(row as ChainDepositRow), block_height: num(row.block_height) };
}

/**
 * A deposit's confirmations, for `chain_deposits d LEFT JOIN chain_cursors c USING (chain)`:
 * while confirming, counted from the blocks the watcher has checked (the block itself is 1);
 * afterwards, the count it was credited (or left the chain) at.
 */
export type StatusCursorRow = {
  height: string;
  node_tip: string | null;
  last_block_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  updated_at: Date;
};

export type StatusCountsRow = {
  confirming: number;
  reversed: number;
  errors: number;
  required: string | null;
  latest_error: string | null;
  latest_error_at: Date | null;
  db_now: Date;
};

export type ReversedDepositRow = {
  id: string;
  chain: string;
  tx_hash: string;
  user_id: string;
  email: string;
  asset_id: string;
  amount_minor: string;
  updated_at: Date;
};

export const CONFIRMATIONS_SQL = `(CASE WHEN d.status = 'confirming'
  THEN GREATEST(0, c.height - d.block_height + 1) ELSE d.confirmations END)::int`;

/** The only code that reads and writes the chain tables (schema/chains.ts). */
export const chainsRepository = {
  async cursor(db: pg.Pool | TxClient, chain: ChainName): Promise<CursorRow | null> {
    const { rows } = await db.query('SELECT * FROM chain_cursors WHERE chain = $1', [chain]);
    return rows[0] ? cursorOf(rows[0]) : null;
  },

  /** The cursor locked for this transaction: watchers of one chain take turns on it. */
  async lockCursor(client: TxClient, chain: ChainName): Promise<CursorRow | null> {
    const { rows } = await client.query('SELECT * FROM chain_cursors WHERE chain = $1 FOR UPDATE', [
      chain,
    ]);
    return rows[0] ? cursorOf(rows[0]) : null;
  },

  /** A first cursor; a watcher that lost the race to create it reads the other's. */
  async createCursor(
    db: pg.Pool,
    chain: ChainName,
    height: number,
    blockHash: string,
    block: { height: number; hash: string; parentHash: string; time: Date | null } | null,
  ): Promise<void> {
    await db.query(
      `INSERT INTO chain_cursors (chain, height, block_hash) VALUES ($1, $2, $3)
       ON CONFLICT (chain) DO NOTHING`,
      [chain, height, blockHash],
    );
    // The block below the first one processed: a reorg may walk back to it.
    if (block) {
      await db.query(
        `INSERT INTO chain_blocks (chain, height, block_hash, parent_hash, block_time)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (chain, height) DO NOTHING`,
        [chain, block.height, block.hash, block.parentHash, block.time],
      );
    }
  },

  async advanceCursor(
    client: TxClient,
    chain: ChainName,
    c: { height: number; blockHash: string; nodeTip: number; blockTime: Date | null },
  ): Promise<void> {
    await client.query(
      `UPDATE chain_cursors SET height = $2, block_hash = $3, node_tip = $4,
         last_block_at = COALESCE($5, last_block_at), updated_at = now()
       WHERE chain = $1`,
      [chain, c.height, c.blockHash, c.nodeTip, c.blockTime],
    );
  },

  /** What the node said last, whatever the watcher could do with it. */
  async noteTip(db: pg.Pool, chain: ChainName, nodeTip: number): Promise<void> {
    await db.query('UPDATE chain_cursors SET node_tip = $2, updated_at = now() WHERE chain = $1', [
      chain,
      nodeTip,
    ]);
  },

  /** A failure: on the cursor (the last one) and counted (errors of the last hour). */
  async noteError(db: pg.Pool, chain: ChainName, message: string): Promise<void> {
    await db.query(
      `UPDATE chain_cursors SET last_error = $2, last_error_at = now(), updated_at = now()
       WHERE chain = $1`,
      [chain, message.slice(0, 500)],
    );
    await db.query('INSERT INTO chain_watch_errors (chain, message) VALUES ($1, $2)', [
      chain,
      message.slice(0, 500),
    ]);
    await db.query(
      `DELETE FROM chain_watch_errors WHERE chain = $1 AND at < now() - interval '1 day'`,
      [chain],
    );
  },

  async storedBlock(
    db: pg.Pool | TxClient,
    chain: ChainName,
    height: number,
  ): Promise<StoredBlock | null> {
    const { rows } = await db.query(
      'SELECT height, block_hash, parent_hash FROM chain_blocks WHERE chain = $1 AND height = $2',
      [chain, height],
    );
    const row = rows[0];
    return row ? { ...row, height: num(row.height) } : null;
  },

  /** Records a processed block and forgets those older than the `keep` most recent. */
  async storeBlock(
    client: TxClient,
    chain: ChainName,
    b: { height: number; hash: string; parentHash: string; time: Date | null },
    keep: number,
  ): Promise<void> {
    await client.query(
      `INSERT INTO chain_blocks (chain, height, block_hash, parent_hash, block_time)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (chain, height) DO UPDATE SET block_hash = EXCLUDED.block_hash,
         parent_hash = EXCLUDED.parent_hash, block_time = EXCLUDED.block_time`,
      [chain, b.height, b.hash, b.parentHash, b.time],
    );
    await client.query('DELETE FROM chain_blocks WHERE chain = $1 AND height <= $2', [
      chain,
      b.height - keep,
    ]);
  },

  async dropBlocksAbove(client: TxClient, chain: ChainName, height: number): Promise<void> {
    await client.query('DELETE FROM chain_blocks WHERE chain = $1 AND height > $2', [
      chain,
      height,
    ]);
  },

  /**
   * Addresses of the assets `symbolNetworks` ("SYMBOL/network") whose match key is not yet
   * worked out: new ones, staff-entered or derived, and changed ones (migration 0011's trigger).
   */
  async unkeyedAddresses(
    db: pg.Pool,
    symbolNetworks: string[],
    limit: number,
  ): Promise<Array<{ id: string; address: string }>> {
    const { rows } = await db.query<{ id: string; address: string }>(
      `SELECT id, address FROM deposit_addresses
        WHERE match_key IS NULL AND (upper(asset_symbol) || '/' || lower(network)) = ANY($1::text[])
        ORDER BY created_at LIMIT $2`,
      [symbolNetworks, limit],
    );
    return rows;
  },

  async setMatchKeys(db: pg.Pool, keys: Array<{ id: string; key: string }>): Promise<void> {
    await db.query(
      `UPDATE deposit_addresses d SET match_key = k.key
         FROM unnest($1::uuid[], $2::text[]) AS k(id, key) WHERE d.id = k.id`,
      [keys.map((k) => k.id), keys.map((k) => k.key)],
    );
  },

  /**
   * The owner of each of `keys` that is a watched (active) address of these assets: the
   * first entered, if staff entered one address twice.
   */
  async ownersOf(
    db: pg.Pool,
    symbolNetworks: string[],
    keys: readonly string[],
  ): Promise<Array<{ match_key: string; user_id: string; address: string }>> {
    if (keys.length === 0) return [];
    const { rows } = await db.query<{ match_key: string; user_id: string; address: string }>(
      `SELECT DISTINCT ON (match_key) match_key, user_id, address FROM deposit_addresses
        WHERE match_key = ANY($1::text[]) AND is_active
          AND (upper(asset_symbol) || '/' || lower(network)) = ANY($2::text[])
        ORDER BY match_key, created_at, id`,
      [keys, symbolNetworks],
    );
    return rows;
  },

  /** How many distinct addresses a chain's watcher watches (keyed ones; new ones join within a tick). */
  async watchedCount(db: pg.Pool | TxClient, symbolNetworks: string[]): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT match_key)::int AS n FROM deposit_addresses
        WHERE match_key <> '' AND is_active
          AND (upper(asset_symbol) || '/' || lower(network)) = ANY($1::text[])`,
      [symbolNetworks],
    );
    return rows[0]?.n ?? 0;
  },

  async lockDeposit(
    client: TxClient,
    chain: ChainName,
    txHash: string,
    outputIndex: number,
  ): Promise<ChainDepositRow | null> {
    const { rows } = await client.query(
      `SELECT * FROM chain_deposits WHERE chain = $1 AND tx_hash = $2 AND output_index = $3
       FOR UPDATE`,
      [chain, txHash, outputIndex],
    );
    return rows[0] ? depositOf(rows[0]) : null;
  },

  async insertDeposit(
    client: TxClient,
    d: {
      chain: ChainName;
      txHash: string;
      outputIndex: number;
      address: string;
      userId: string;
      assetId: string;
      amountMinor: bigint;
      blockHeight: number;
      blockHash: string;
      confirmations: number;
      status: ChainDepositRow['status'];
      transactionId: string | null;
    },
  ): Promise<ChainDepositRow> {
    const { rows } = await client.query(
      `INSERT INTO chain_deposits (chain, tx_hash, output_index, address, user_id, asset_id,
         amount_minor, block_height, block_hash, confirmations, status, transaction_id,
         credited_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
         CASE WHEN $11 = 'credited' THEN now() END)
       RETURNING *`,
      [
        d.chain,
        d.txHash,
        d.outputIndex,
        d.address,
        d.userId,
        d.assetId,
        d.amountMinor.toString(),
        d.blockHeight,
        d.blockHash,
        d.confirmations,
        d.status,
        d.transactionId,
      ],
    );
    return depositOf(rows[0]);
  },

  async moveDeposit(
    client: TxClient,
    id: string,
    to: { blockHeight: number; blockHash: string; status: ChainDepositRow['status'] },
  ): Promise<void> {
    await client.query(
      `UPDATE chain_deposits SET block_height = $2, block_hash = $3, status = $4,
         confirmations = 0, updated_at = now() WHERE id = $1`,
      [id, to.blockHeight, to.blockHash, to.status],
    );
  },

  async setStatus(
    client: TxClient,
    id: string,
    status: ChainDepositRow['status'],
    transactionId?: string,
  ): Promise<void> {
    await client.query(
      `UPDATE chain_deposits SET status = $2, transaction_id = COALESCE($3, transaction_id),
         credited_at = CASE WHEN $2 = 'credited' THEN COALESCE(credited_at, now()) ELSE credited_at END,
         updated_at = now() WHERE id = $1`,
      [id, status, transactionId ?? null],
    );
  },

  /** Deposits in blocks above `height` that were confirming or credited, locked. */
  async lockDepositsAbove(
    client: TxClient,
    chain: ChainName,
    height: number,
  ): Promise<ChainDepositRow[]> {
    const { rows } = await client.query(
      `SELECT * FROM chain_deposits WHERE chain = $1 AND block_height > $2
         AND status IN ('confirming', 'credited') ORDER BY block_height, id FOR UPDATE`,
      [chain, height],
    );
    return rows.map(depositOf);
  },

  /** The customers with a deposit still confirming on this chain (their counts move per block). */
  async confirmingUsers(client: TxClient, chain: ChainName): Promise<string[]> {
    const { rows } = await client.query<{ user_id: string }>(
      `SELECT DISTINCT user_id FROM chain_deposits WHERE chain = $1 AND status = 'confirming'`,
      [chain],
    );
    return rows.map((r) => r.user_id);
  },

  /**
   * The confirming deposits that reach `required` confirmations at `height`, locked, with
   * their count written. Only these are written: a block leaves the others' rows alone (their
   * count is read from the cursor, CONFIRMATIONS_SQL).
   */
  async dueDeposits(
    client: TxClient,
    chain: ChainName,
    height: number,
    required: number,
  ): Promise<ChainDepositRow[]> {
    const { rows } = await client.query(
      `UPDATE chain_deposits SET confirmations = $2::bigint - block_height + 1, updated_at = now()
        WHERE chain = $1 AND status = 'confirming' AND block_height <= $2::bigint - $3::int + 1 RETURNING *`,
      [chain, height, required],
    );
    return rows.map(depositOf);
  },

  async emailOf(client: TxClient, userId: string): Promise<string | null> {
    const { rows } = await client.query<{ email: string }>(
      'SELECT email FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.email ?? null;
  },

  /** A ledger deposit row already carrying this chain hash for the asset (a manual credit). */
  /** The deposits already recorded for these (transaction, output) pairs, locked. */
  async lockDepositsOf(
    client: TxClient,
    chain: ChainName,
    outputs: Array<{ txHash: string; outputIndex: number }>,
  ): Promise<ChainDepositRow[]> {
    const { rows } = await client.query(
      `SELECT d.* FROM chain_deposits d
         JOIN unnest($2::text[], $3::int[]) AS o(tx_hash, output_index)
           ON d.tx_hash = o.tx_hash AND d.output_index = o.output_index
        WHERE d.chain = $1 ORDER BY d.id FOR UPDATE OF d`,
      [chain, outputs.map((o) => o.txHash), outputs.map((o) => o.outputIndex)],
    );
    return rows.map(depositOf);
  },

  /** Which of these (asset, hash) pairs have a ledger deposit (the same test as ledgerDepositWithHash). */
  async ledgerDepositHashes(
    client: TxClient,
    pairs: Array<{ assetId: string; hash: string }>,
  ): Promise<Set<string>> {
    const { rows } = await client.query<{ asset_id: string; hash: string }>(
      `SELECT p.asset_id, p.hash FROM unnest($1::text[], $2::text[]) AS p(asset_id, hash)
        WHERE EXISTS (SELECT 1 FROM transactions t
          WHERE t.transaction_type = 'deposit' AND t.asset_id = p.asset_id
            AND t.transaction_hash IS NOT NULL AND t.deleted_at IS NULL
            AND lower(regexp_replace(t.transaction_hash, '^0[xX]', '')) = lower(regexp_replace(p.hash, '^0[xX]', '')))`,
      [pairs.map((p) => p.assetId), pairs.map((p) => p.hash)],
    );
    return new Set(rows.map((r) => `${r.asset_id}/${r.hash}`));
  },

  /** New confirming deposits of one block, one statement for many. */
  async insertConfirming(
    client: TxClient,
    chain: ChainName,
    block: { height: number; hash: string },
    deposits: Array<{
      txHash: string;
      outputIndex: number;
      address: string;
      userId: string;
      assetId: string;
      amountMinor: bigint;
      transactionId: string;
    }>,
  ): Promise<void> {
    const column = <K extends keyof (typeof deposits)[number]>(k: K) => deposits.map((d) => d[k]);
    await client.query(
      `INSERT INTO chain_deposits (chain, tx_hash, output_index, address, user_id, asset_id,
         amount_minor, block_height, block_hash, confirmations, status, transaction_id)
       SELECT $1, tx_hash, output_index, address, user_id, asset_id, amount_minor, $8, $9, 0,
              'confirming', transaction_id
         FROM unnest($2::text[], $3::int[], $4::text[], $5::uuid[], $6::text[], $7::numeric[],
                     $10::uuid[])
           AS d(tx_hash, output_index, address, user_id, asset_id, amount_minor, transaction_id)`,
      [
        chain,
        column('txHash'),
        column('outputIndex'),
        column('address'),
        column('userId'),
        column('assetId'),
        deposits.map((d) => d.amountMinor.toString()),
        block.height,
        block.hash,
        column('transactionId'),
      ],
    );
  },

  async markCredited(client: TxClient, ids: string[]): Promise<void> {
    await client.query(
      `UPDATE chain_deposits SET status = 'credited', credited_at = COALESCE(credited_at, now()),
         updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  },

  async emailsOf(client: TxClient, userIds: string[]): Promise<Map<string, string>> {
    const { rows } = await client.query<{ id: string; email: string }>(
      'SELECT id, email FROM users WHERE id = ANY($1::uuid[])',
      [userIds],
    );
    return new Map(rows.map((r) => [r.id, r.email]));
  },

  async ledgerDepositWithHash(
    client: TxClient,
    assetId: string,
    hash: string,
  ): Promise<{ id: string; user_id: string } | null> {
    const { rows } = await client.query<{ id: string; user_id: string }>(
      `SELECT id, user_id FROM transactions
        WHERE transaction_type = 'deposit' AND asset_id = $1 AND transaction_hash IS NOT NULL
          AND lower(regexp_replace(transaction_hash, '^0[xX]', '')) = lower(regexp_replace($2, '^0[xX]', ''))
          AND deleted_at IS NULL LIMIT 1`,
      [assetId, hash],
    );
    return rows[0] ?? null;
  },

  /** Any chain deposit of this transaction on this chain (the manual-credit check). */
  async depositsOfTx(
    db: pg.Pool | TxClient,
    chain: string,
    txHash: string,
  ): Promise<ChainDepositRow[]> {
    const { rows } = await db.query(
      // Hashes are stored in normalizeTxHash's form, and callers pass that form: the
      // equality is served by the (chain, tx_hash, output_index) index.
      `SELECT * FROM chain_deposits WHERE chain = $1 AND tx_hash = $2 ORDER BY output_index`,
      [chain, txHash],
    );
    return rows.map(depositOf);
  },

  /** The cursor as the status screen reads it, heights as text. */
  async statusCursor(db: pg.Pool, chain: ChainName): Promise<StatusCursorRow | null> {
    const { rows } = await db.query<StatusCursorRow>(
      `SELECT height::text, node_tip::text, last_block_at, last_error, last_error_at, updated_at
         FROM chain_cursors WHERE chain = $1`,
      [chain],
    );
    return rows[0] ?? null;
  },

  /** A chain's deposit and error counts, its latest error and its confirmations setting. */
  async statusCounts(
    db: pg.Pool,
    chain: ChainName,
    confirmationsKey: string,
  ): Promise<StatusCountsRow> {
    const { rows } = await db.query<StatusCountsRow>(
      `SELECT (SELECT count(*) FILTER (WHERE status = 'confirming')::int
                 FROM chain_deposits WHERE chain = $1) AS confirming,
              (SELECT count(*) FILTER (WHERE status = 'reversed-on-chain')::int
                 FROM chain_deposits WHERE chain = $1) AS reversed,
              (SELECT count(*)::int FROM chain_watch_errors
                WHERE chain = $1 AND at > now() - interval '1 hour') AS errors,
              (SELECT setting_value FROM app_settings WHERE setting_key = $2) AS required,
              e.message AS latest_error, e.at AS latest_error_at, now() AS db_now
         FROM (SELECT 1) one
         LEFT JOIN LATERAL (SELECT message, at FROM chain_watch_errors WHERE chain = $1
                             ORDER BY at DESC, id DESC LIMIT 1) e ON true`,
      [chain, confirmationsKey],
    );
    // One row always: the FROM is a single row, the join is a LEFT one.
    return rows[0] as StatusCountsRow;
  },

  /** Credited deposits that left their chain, of every chain. */
  async reversedCount(db: pg.Pool): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM chain_deposits WHERE status = 'reversed-on-chain'`,
    );
    return rows[0]?.n ?? 0;
  },

  /** The newest 100 credited deposits that left their chain, with their owner's e-mail. */
  async reversedDeposits(db: pg.Pool): Promise<ReversedDepositRow[]> {
    const { rows } = await db.query<ReversedDepositRow>(
      `SELECT d.id, d.chain, d.tx_hash, d.user_id, u.email, d.asset_id,
              d.amount_minor::text AS amount_minor, d.updated_at
         FROM chain_deposits d JOIN users u ON u.id = d.user_id
        WHERE d.status = 'reversed-on-chain' ORDER BY d.updated_at DESC LIMIT 100`,
    );
    return rows;
  },

  /** Moves the cursor back to a block (a reorganisation's common ancestor). */
  async rewindCursor(
    client: TxClient,
    chain: ChainName,
    to: { height: number; hash: string },
  ): Promise<void> {
    await client.query(
      `UPDATE chain_cursors SET height = $2, block_hash = $3, updated_at = now() WHERE chain = $1`,
      [chain, to.height, to.hash],
    );
  },

  /** Takes transaction-scoped advisory locks on these keys, in key order. */
  async lockKeys(client: TxClient, keys: string[]): Promise<void> {
    await client.query(
      `SELECT pg_advisory_xact_lock(hashtextextended(k, 0))
         FROM (SELECT k FROM unnest($1::text[]) AS k ORDER BY k) AS ordered`,
      [keys],
    );
  },
};
