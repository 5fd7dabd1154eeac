import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { chainBlocks, chainCursors } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { BlockRef, ChainName } from './chain-adapter';

type CursorRow = RowOf<typeof chainCursors>;

/** Where a chain's watcher stands, its heights as numbers (int8 arrives as text). */
export type ChainCursor = Omit<CursorRow, 'height' | 'node_tip'> & {
  height: number;
  node_tip: number | null;
};

/** A processed block's hashes, its height as a number. */
export type StoredBlock = Omit<
  ColumnsOf<typeof chainBlocks, 'height' | 'block_hash' | 'parent_hash'>,
  'height'
> & { height: number };

function cursorOf(row: CursorRow): ChainCursor {
  return {
    ...row,
    height: Number(row.height),
    node_tip: row.node_tip == null ? null : Number(row.node_tip),
  };
}

/** The watcher's position (`chain_cursors`) and the recent blocks it checked (`chain_blocks`). */
export const chainCursorsRepository = {
  async cursor(db: pg.Pool | TxClient, chain: ChainName): Promise<ChainCursor | null> {
    const { rows } = await db.query<CursorRow>('SELECT * FROM chain_cursors WHERE chain = $1', [
      chain,
    ]);
    return rows[0] ? cursorOf(rows[0]) : null;
  },

  /** The cursor locked for this transaction: watchers of one chain take turns on it. */
  async lockCursor(client: TxClient, chain: ChainName): Promise<ChainCursor | null> {
    const { rows } = await client.query<CursorRow>(
      'SELECT * FROM chain_cursors WHERE chain = $1 FOR UPDATE',
      [chain],
    );
    return rows[0] ? cursorOf(rows[0]) : null;
  },

  /** A first cursor; a watcher that lost the race to create it reads the other's. */
  async createCursor(
    db: pg.Pool,
    chain: ChainName,
    height: number,
    blockHash: string,
    block: BlockRef | null,
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

  async storedBlock(
    db: pg.Pool | TxClient,
    chain: ChainName,
    height: number,
  ): Promise<StoredBlock | null> {
    const { rows } = await db.query<
      ColumnsOf<typeof chainBlocks, 'height' | 'block_hash' | 'parent_hash'>
    >('SELECT height, block_hash, parent_hash FROM chain_blocks WHERE chain = $1 AND height = $2', [
      chain,
      height,
    ]);
    const row = rows[0];
    return row ? { ...row, height: Number(row.height) } : null;
  },

  /** Records a processed block and forgets those older than the `keep` most recent. */
  async storeBlock(client: TxClient, chain: ChainName, b: BlockRef, keep: number): Promise<void> {
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
};
