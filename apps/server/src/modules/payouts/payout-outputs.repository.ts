import type { ColumnsOf } from '@server/db/rows';
import type {
  chainAddressCounters,
  payoutChangeOutputs,
  payoutInputs,
} from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/**
 * Bitcoin outputs: what Coffer may spend (credited deposits and the change of its own
 * batches), the outputs a live batch reserves (`payout_inputs`), and the change outputs of
 * mined batches (`payout_change_outputs`).
 */

type Db = pg.Pool | pg.PoolClient;

/** An output Coffer may spend, its amount as bigint; `change` 1 for account/1/i. */
export type SpendableRow = ColumnsOf<
  typeof payoutChangeOutputs,
  'tx_hash' | 'output_index' | 'derivation_index'
> & { amount_minor: bigint; change: 0 | 1 };

type SpendableRecord = Omit<SpendableRow, 'amount_minor'> &
  ColumnsOf<typeof payoutChangeOutputs, 'amount_minor'>;

export const payoutOutputsRepository = {
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
    const { rows } = await client.query<ColumnsOf<typeof payoutInputs, 'batch_id'>>(
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
    const { rows } = await db.query<SpendableRecord>(
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
    return rows.map((row) => ({
      tx_hash: row.tx_hash,
      output_index: row.output_index,
      derivation_index: row.derivation_index,
      amount_minor: BigInt(row.amount_minor),
      change: row.change,
    }));
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

  /** A reorganisation took blocks above `height` off the chain: their change is not ours yet. */
  async forgetChangeAbove(client: TxClient, chain: string, height: number) {
    await client.query(
      `DELETE FROM payout_change_outputs WHERE block_height > $1 AND $2 = 'bitcoin'`,
      [height, chain],
    );
  },

  /** The next index on the Bitcoin internal chain (account/1/i), never handed out twice. */
  async nextChangeIndex(client: TxClient): Promise<number> {
    const { rows } = await client.query<ColumnsOf<typeof chainAddressCounters, 'next_index'>>(
      `INSERT INTO chain_address_counters (chain, next_index) VALUES ('bitcoin-change', 1)
       ON CONFLICT (chain) DO UPDATE SET next_index = chain_address_counters.next_index + 1
       RETURNING next_index - 1 AS next_index`,
    );
    return rows[0]?.next_index ?? 0;
  },

  // ------------------------------------------------------------------- ways out (issue 32)

  /** Batches other than `batchId` that hold any of these outputs (`txid:vout`). */
  async heldElsewhere(client: TxClient, batchId: string, outpoints: string[]): Promise<string[]> {
    if (outpoints.length === 0) return [];
    const { rows } = await client.query<ColumnsOf<typeof payoutInputs, 'batch_id'>>(
      `SELECT DISTINCT batch_id FROM payout_inputs
        WHERE chain = 'bitcoin' AND batch_id <> $1 AND tx_hash || ':' || output_index = ANY($2::text[])`,
      [batchId, outpoints],
    );
    return rows.map((r) => r.batch_id);
  },

  /** A re-sent batch's inputs reserved again (those it still holds are kept). */
  async reserveAgain(
    client: TxClient,
    batchId: string,
    inputs: Array<{ txid: string; vout: number; amount: bigint }>,
  ) {
    await client.query(
      `INSERT INTO payout_inputs (chain, tx_hash, output_index, batch_id, amount_minor)
       SELECT 'bitcoin', h, o, $1, a FROM unnest($2::text[], $3::int[], $4::numeric[]) AS x(h, o, a)
       ON CONFLICT (chain, tx_hash, output_index) DO NOTHING`,
      [
        batchId,
        inputs.map((i) => i.txid),
        inputs.map((i) => i.vout),
        inputs.map((i) => i.amount.toString()),
      ],
    );
  },
};
