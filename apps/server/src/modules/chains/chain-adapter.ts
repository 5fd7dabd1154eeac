import type { TAssetId } from '@coffer/shared';

/** The chains Coffer watches (docs/decisions/0021). */
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
 * Which of `keys` (match keys of a block's payees) are watched addresses. The watcher asks
 * the database, so it never holds every watched address in memory (docs/decisions/0022).
 */
export type WatchedLookup = (keys: readonly string[]) => Promise<ReadonlySet<string>>;

/** A block with the payments to watched addresses in it. */
export type ScannedBlock = { block: BlockRef; transfers: SeenTransfer[] };

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
  /** Every payment in `block` to an address `watched` names (asked once per block). */
  transfersIn(block: BlockRef, watched: WatchedLookup): Promise<SeenTransfer[]>;
  /**
   * For catching up: blocks `from`..`to` (inclusive) with their payments, read in a few
   * requests instead of several per block. The answer is a run of blocks linked by their
   * parent hashes starting at `from`, possibly shorter than asked (empty when the chain
   * moved while it was read: the watcher then goes block by block). Optional: a chain whose
   * blocks come minutes apart gains nothing.
   */
  scanRange?(from: number, to: number, watched: WatchedLookup): Promise<ScannedBlock[]>;
}

/**
 * A transaction as payouts read it (Coffer's own, or one staff typed): what it pays and what
 * it uses up, so a payout is settled by its output, never by its hash alone.
 */
export type ChainTransaction = {
  hash: string;
  /** Null while it waits in the node's mempool. */
  block: { height: number; hash: string } | null;
  /** Ethereum: the sender (lower-case 0x) and its nonce; null on Bitcoin. */
  from: string | null;
  nonce: number | null;
  /** False for an Ethereum transaction that reverted (it paid nothing but its fee). */
  success: boolean;
  /** What it pays: Bitcoin outputs (by script), plain ETH (-1), token `Transfer` logs. */
  payments: SeenTransfer[];
  /** Bitcoin: the outputs it spends, as `txid:vout`. */
  spends: string[];
  /** The fee paid, where the chain says it (Ethereum: gasUsed × effectiveGasPrice). */
  feeMinor: bigint | null;
};

/** What the payouts module watches for in a block. */
export type PayoutWatch = {
  /** Transactions Coffer built or staff typed. */
  hashes: ReadonlySet<string>;
  /** Bitcoin outputs live batches spend (`txid:vout`): another spender is a conflict. */
  outpoints: ReadonlySet<string>;
  /** Ethereum: the payout address (lower-case); another transaction of it may take a nonce. */
  sender: string | null;
};

/** The node calls payouts need beyond watching deposits. Every method throws without an answer. */
export interface PayoutNode {
  /** The transactions of `block` that `watch` names (by hash, spent output or sender). */
  payoutEvidence(block: BlockRef, watch: PayoutWatch): Promise<ChainTransaction[]>;
  /**
   * A transaction by hash, in the mempool or on the chain, or null. Bitcoin nodes without a
   * transaction index find a mined one only in a block they are told, so the recent blocks
   * the watcher checked are passed.
   */
  findTransaction(hash: string, recentBlocks: readonly string[]): Promise<ChainTransaction | null>;
  /** Sends signed bytes: 'known' when the node already has them (harmless to send again). */
  broadcast(signedHex: string): Promise<'sent' | 'known'>;
  /** Whether the node's mempool holds the transaction. */
  inMempool(hash: string): Promise<boolean>;
}
