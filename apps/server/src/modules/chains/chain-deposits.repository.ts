import type { RowOf } from '@server/db/rows';
import type { chainDeposits } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { ChainName } from './chain-adapter';

export type ChainDepositStatus = 'confirming' | 'credited' | 'orphaned' | 'reversed-on-chain';

type DepositRow = RowOf<typeof chainDeposits>;

/** A deposit seen on a chain: its block height a number, its amount a bigint. */
export type ChainDeposit = Omit<DepositRow, 'block_height' | 'amount_minor' | 'status'> & {
  block_height: number;
  amount_minor: bigint;
  status: ChainDepositStatus;
};

function depositOf(row: DepositRow): ChainDeposit {
  return {
    ...row,
    block_height: Number(row.block_height),
    amount_minor: BigInt(row.amount_minor),
    // Only this repository writes the column, and only these values.
    status: row.status as ChainDepositStatus,
  };
}

/**
 * A deposit's confirmations, for `chain_deposits d LEFT JOIN chain_cursors c USING (chain)`:
 * while confirming, counted from the blocks the watcher has checked (the block itself is 1);
 * afterwards, the count it was credited (or left the chain) at.
 */
export const CONFIRMATIONS_SQL = `(CASE WHEN d.status = 'confirming'
  THEN GREATEST(0, c.height - d.block_height + 1) ELSE d.confirmations END)::int`;

/** The deposits the watchers record (`chain_deposits`), from first seen to credited. */
export const chainDepositsRepository = {
  async lockDeposit(
    client: TxClient,
    chain: ChainName,
    txHash: string,
    outputIndex: number,
  ): Promise<ChainDeposit | null> {
    const { rows } = await client.query<DepositRow>(
      `SELECT * FROM chain_deposits WHERE chain = $1 AND tx_hash = $2 AND output_index = $3
       FOR UPDATE`,
      [chain, txHash, outputIndex],
    );
    return rows[0] ? depositOf(rows[0]) : null;
  },

  /** The deposits already recorded for these (transaction, output) pairs, locked. */
  async lockDepositsOf(
    client: TxClient,
    chain: ChainName,
    outputs: Array<{ txHash: string; outputIndex: number }>,
  ): Promise<ChainDeposit[]> {
    const { rows } = await client.query<DepositRow>(
      `SELECT d.* FROM chain_deposits d
         JOIN unnest($2::text[], $3::int[]) AS o(tx_hash, output_index)
           ON d.tx_hash = o.tx_hash AND d.output_index = o.output_index
        WHERE d.chain = $1 ORDER BY d.id FOR UPDATE OF d`,
      [chain, outputs.map((o) => o.txHash), outputs.map((o) => o.outputIndex)],
    );
    return rows.map(depositOf);
  },

  /** Deposits in blocks above `height` that were confirming or credited, locked. */
  async lockDepositsAbove(
    client: TxClient,
    chain: ChainName,
    height: number,
  ): Promise<ChainDeposit[]> {
    const { rows } = await client.query<DepositRow>(
      `SELECT * FROM chain_deposits WHERE chain = $1 AND block_height > $2
         AND status IN ('confirming', 'credited') ORDER BY block_height, id FOR UPDATE`,
      [chain, height],
    );
    return rows.map(depositOf);
  },

  /** Any chain deposit of this transaction on this chain (the manual-credit check). */
  async depositsOfTx(
    db: pg.Pool | TxClient,
    chain: string,
    txHash: string,
  ): Promise<ChainDeposit[]> {
    const { rows } = await db.query<DepositRow>(
      // Hashes are stored in normalizeTxHash's form, and callers pass that form: the
      // equality is served by the (chain, tx_hash, output_index) index.
      `SELECT * FROM chain_deposits WHERE chain = $1 AND tx_hash = $2 ORDER BY output_index`,
      [chain, txHash],
    );
    return rows.map(depositOf);
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
      status: ChainDepositStatus;
      transactionId: string | null;
    },
  ): Promise<ChainDeposit> {
    const { rows } = await client.query<DepositRow>(
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
    const [row] = rows;
    if (!row) throw new Error('the chain deposit was not written');
    return depositOf(row);
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

  async moveDeposit(
    client: TxClient,
    id: string,
    to: { blockHeight: number; blockHash: string; status: ChainDepositStatus },
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
    status: ChainDepositStatus,
    transactionId?: string,
  ): Promise<void> {
    await client.query(
      `UPDATE chain_deposits SET status = $2, transaction_id = COALESCE($3, transaction_id),
         credited_at = CASE WHEN $2 = 'credited' THEN COALESCE(credited_at, now()) ELSE credited_at END,
         updated_at = now() WHERE id = $1`,
      [id, status, transactionId ?? null],
    );
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
  ): Promise<ChainDeposit[]> {
    const { rows } = await client.query<DepositRow>(
      `UPDATE chain_deposits SET confirmations = $2::bigint - block_height + 1, updated_at = now()
        WHERE chain = $1 AND status = 'confirming' AND block_height <= $2::bigint - $3::int + 1 RETURNING *`,
      [chain, height, required],
    );
    return rows.map(depositOf);
  },

  async markCredited(client: TxClient, ids: string[]): Promise<void> {
    await client.query(
      `UPDATE chain_deposits SET status = 'credited', credited_at = COALESCE(credited_at, now()),
         updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  },
};
