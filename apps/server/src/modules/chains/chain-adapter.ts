import type { TAssetId } from '@coffer/shared';

/** The chains Coffer watches (issue 14, docs/decisions/0021). */
export type ChainName = 'bitcoin' | 'ethereum' | 'tron';

/** A block on the node's current chain. */
export type BlockRef = {
  height: number;
  hash: string;
  parentHash: string;
  time: Date | null;
};

/**
 * A payment to a watched address found in a block. `matchKey` is the adapter's own form of
 * the address it paid (see `ChainAdapter.matchKeyOf`); `outputIndex` is the Bitcoin output
 * (vout), the log index of a token transfer, or -1 for a plain ETH transfer.
 */
export type SeenTransfer = {
  txHash: string;
  outputIndex: number;
  matchKey: string;
  assetId: TAssetId;
  /** In the asset's smallest unit. */
  amountMinor: bigint;
};

/**
 * What a watcher needs of one chain's node or API. Every method throws when the node cannot
 * answer: the watcher then retries with backoff, and never reads "no answer" as "no deposits".
 */
export interface ChainAdapter {
  readonly chain: ChainName;
  /** The assets this chain carries (e.g. ETH and USDT-ERC20 on Ethereum). */
  readonly assets: readonly TAssetId[];
  /**
   * The key a stored address is matched by: Bitcoin the output script (hex), so any
   * Bitcoin-family node's own address format does not matter; Ethereum the lower-case
   * address; TRON the 21-byte hex form. Null when the address is not one of this chain's.
   */
  matchKeyOf(address: string): string | null;
  /** The node's tip height. */
  tip(): Promise<number>;
  /** The block at `height` on the node's current chain, or null above its tip. */
  blockAt(height: number): Promise<BlockRef | null>;
  /** Every payment in `block` whose match key is in `watched`. */
  transfersIn(block: BlockRef, watched: ReadonlySet<string>): Promise<SeenTransfer[]>;
}
