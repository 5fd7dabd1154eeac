import type { TAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { Ledger } from '../ledger';
import type { Outbox } from '../outbox';
import type { PriceService } from '../prices';
import { SETTING_DEFAULTS } from '../settings';
import type {
  BlockRef,
  ChainAdapter,
  ChainName,
  ChainTransaction,
  PayoutNode,
  PayoutWatch,
  ScannedBlock,
  SeenTransfer,
} from './chain-adapter';
import { CONFIRMATIONS_SETTING, symbolNetworksOf } from './chain-assets';

/**
 * The recent block hashes kept per chain: more than any confirmation setting allows
 * (settings cap them at 100), so a reorg that could undo an uncredited deposit is seen.
 */
export const KEEP_BLOCKS = 200;

/** Blocks read per request while catching up (a range of full blocks and their token logs). */
export const RANGE_BLOCKS = 50;

export type WatcherDeps = {
  pool: pg.Pool;
  adapter: ChainAdapter;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  outbox: Pick<Outbox, 'mailMany'>;
  audit: AuditLog;
  settings: { all(): Promise<Map<string, string>> };
  log: Logger;
  publicUrl: string;
  /**
   * Called in the block's transaction with the customers whose deposits' confirmations just
   * moved (the server announces it, so their history refreshes live).
   */
  onConfirmations?: (client: TxClient, userIds: string[]) => Promise<void>;
  /**
   * Payouts on this chain (the payouts module): settled from each block's evidence in the
   * block's transaction, unsettled by a rollback, and re-sent after a tick when they left
   * the mempool. `node` reads the evidence (the adapter, when it can). `onBlock` and
   * `afterTick` return problems for staff (a payout whose settlement failed and was undone
   * alone, a nonce gap), one line each: the watcher records them and goes on.
   */
  payouts?: {
    node: PayoutNode;
    watch(): Promise<PayoutWatch | null>;
    onBlock(
      client: TxClient,
      block: BlockRef,
      evidence: ChainTransaction[],
      required: number,
    ): Promise<string[] | undefined>;
    onRollBack(client: TxClient, toHeight: number): Promise<void>;
    afterTick(): Promise<string[] | undefined>;
  };
  /** Where a chain with no cursor yet starts; default: the node's tip at the first run. */
  startHeight?: number;
  /** Blocks processed per tick at most, so one tick never runs for ever. */
  maxBlocksPerTick?: number;
  /** Backoff after a failure: the first wait, doubled per failure up to the maximum. */
  backoffMs?: { first: number; max: number };
  now?: () => number;
};

/**
 * What the parts of one chain's watcher share, built once by `createChainWatcher`: its
 * dependencies, the chain and its node, and the "SYMBOL/network" pairs of the addresses
 * it watches.
 */
export type WatcherContext = {
  deps: WatcherDeps;
  pool: pg.Pool;
  adapter: ChainAdapter;
  chain: ChainName;
  symbolNetworks: string[];
  /** When each payout problem found after a tick was last recorded (to record it sparingly). */
  payoutNotes: Map<string, number>;
};

export function createWatcherContext(deps: WatcherDeps): WatcherContext {
  return {
    deps,
    pool: deps.pool,
    adapter: deps.adapter,
    chain: deps.adapter.chain,
    symbolNetworks: symbolNetworksOf(deps.adapter.assets),
    payoutNotes: new Map(),
  };
}

/** A watched address's customer. */
export type Owner = { userId: string; address: string };
/** A payment to a watched address, its hash in its network's one form. */
export type Payment = { t: SeenTransfer; owner: Owner; txHash: string; assetId: TAssetId };
/** A run of blocks read from `from` on, and the owners of the watched payees in it. */
export type Run = { from: number; blocks: ScannedBlock[]; owners: Map<string, Owner> };

/** The chain's confirmations setting, or its default; anything but a whole number ≥ 1 is 1. */
export async function requiredConfirmations(ctx: WatcherContext): Promise<number> {
  const key = CONFIRMATIONS_SETTING[ctx.chain];
  const value =
    (await ctx.deps.settings.all()).get(key) ??
    SETTING_DEFAULTS.find((d) => d.key === key)?.value ??
    '1';
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
