import { ASSETS, formatAmount, mulPrice, normalizeTxHash, type TAssetId } from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { Ledger, PendingDepositInput } from '../ledger';
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
  WatchedLookup,
} from './chain-adapter';
import { type ChainDepositRow, chainsRepository as repo } from './chains.repository';

/**
 * The recent block hashes kept per chain: more than any confirmation setting allows
 * (settings cap them at 100), so a reorg that could undo an uncredited deposit is seen.
 */
export const KEEP_BLOCKS = 200;

/** The app setting holding each chain's confirmations. */
export const CONFIRMATIONS_SETTING: Record<ChainName, string> = {
  bitcoin: 'confirmations_btc',
  ethereum: 'confirmations_eth',
  tron: 'confirmations_tron',
};

/** Which chain carries an asset, by the catalogue's network. */
export function chainOfAsset(assetId: string): ChainName | null {
  const network = (ASSETS as Record<string, { network: string } | undefined>)[assetId]?.network;
  if (network === 'bitcoin') return 'bitcoin';
  if (network === 'ethereum' || network === 'erc20') return 'ethereum';
  if (network === 'trc20') return 'tron';
  return null;
}

/** How staff entered an asset's addresses (deposits.service's WALLET_OF_ADDRESS, reversed). */
const SYMBOL_NETWORK: Partial<Record<TAssetId, string>> = {
  BTC: 'BTC/bitcoin',
  ETH: 'ETH/ethereum',
  'USDT-ERC20': 'USDT/erc20',
  'USDT-TRC20': 'USDT/trc20',
};

/** The "SYMBOL/network" pairs of the deposit addresses that receive these assets. */
export function symbolNetworksOf(assets: readonly TAssetId[]): string[] {
  return assets.flatMap((a) => SYMBOL_NETWORK[a] ?? []);
}

/** Blocks read per request while catching up (a range of full blocks and their token logs). */
export const RANGE_BLOCKS = 50;
/** Addresses keyed per query (keyNewAddresses). */
const KEY_BATCH = 1_000;

type Owner = { userId: string; address: string };
/** A payment to a watched address, its hash in its network's one form. */
type Payment = { t: SeenTransfer; owner: Owner; txHash: string; assetId: TAssetId };
/** A run of blocks read from `from` on, and the owners of the watched payees in it. */
type Run = { from: number; blocks: ScannedBlock[]; owners: Map<string, Owner> };

const ORPHANED_REASON =
  'This deposit left the blockchain in a reorganisation before it was confirmed.';

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
   * the mempool. `node` reads the evidence (the adapter, when it can).
   */
  payouts?: {
    node: PayoutNode;
    watch(): Promise<PayoutWatch | null>;
    onBlock(
      client: TxClient,
      block: BlockRef,
      evidence: ChainTransaction[],
      required: number,
    ): Promise<void>;
    onRollBack(client: TxClient, toHeight: number): Promise<void>;
    afterTick(): Promise<void>;
  };
  /** Where a chain with no cursor yet starts; default: the node's tip at the first run. */
  startHeight?: number;
  /** Blocks processed per tick at most, so one tick never runs for ever. */
  maxBlocksPerTick?: number;
  /** Backoff after a failure: the first wait, doubled per failure up to the maximum. */
  backoffMs?: { first: number; max: number };
  now?: () => number;
};

export type TickResult =
  | { state: 'ok'; blocks: number; height: number; tip: number }
  | { state: 'waiting'; until: number }
  | { state: 'failed'; error: string };

/**
 * One chain's watcher (docs/decisions/0021). Each `tick()` follows the node from the cursor
 * in `chain_cursors`, one block per database transaction: the node is asked first, outside
 * any transaction; the transaction then locks the cursor and goes on only if it still is
 * where the watcher read it, so two watchers on one database (a failover that overlaps, a
 * test) take turns and never process a block twice. Deposits are recorded when first seen,
 * with a pending ledger row (no balance effect, decision 0005), and completed through the
 * ledger once, when their confirmations reach the chain's setting.
 */
export function createChainWatcher(deps: WatcherDeps) {
  const { adapter, pool } = deps;
  const chain = adapter.chain;
  const now = deps.now ?? Date.now;
  const backoff = deps.backoffMs ?? { first: 2_000, max: 60_000 };
  const maxBlocks = deps.maxBlocksPerTick ?? 500;
  let failures = 0;
  let nextTryAt = 0;
  const symbolNetworks = symbolNetworksOf(adapter.assets);

  async function requiredConfirmations(): Promise<number> {
    const key = CONFIRMATIONS_SETTING[chain];
    const value =
      (await deps.settings.all()).get(key) ??
      SETTING_DEFAULTS.find((d) => d.key === key)?.value ??
      '1';
    const n = Number(value);
    return Number.isInteger(n) && n >= 1 ? n : 1;
  }

  /**
   * Works out the match key of every address that has none yet (new or changed ones, from
   * any path), so a block's payees can be looked up by key. Called after the tip is read:
   * an address handed out before a payment in any block up to that tip is keyed by then.
   */
  async function keyNewAddresses() {
    for (;;) {
      const rows = await repo.unkeyedAddresses(pool, symbolNetworks, KEY_BATCH);
      if (rows.length === 0) return;
      await repo.setMatchKeys(
        pool,
        rows.map((r) => ({ id: r.id, key: adapter.matchKeyOf(r.address) ?? '' })),
      );
      if (rows.length < KEY_BATCH) return;
    }
  }

  /** A lookup for one read of the node, and the owners it found (key → customer, address). */
  function ownersLookup() {
    const owners = new Map<string, Owner>();
    const lookup: WatchedLookup = async (keys) => {
      for (const row of await repo.ownersOf(pool, symbolNetworks, keys)) {
        owners.set(row.match_key, { userId: row.user_id, address: row.address });
      }
      return new Set(owners.keys());
    };
    return { owners, lookup };
  }

  /**
   * The payout transactions in `block`. The watch list is read after the block itself: a
   * payout is recorded before it is sent, so one in this block is on the list by then.
   */
  async function payoutEvidence(block: BlockRef): Promise<ChainTransaction[]> {
    const payouts = deps.payouts;
    if (!payouts) return [];
    const watch = await payouts.watch();
    return watch ? payouts.node.payoutEvidence(block, watch) : [];
  }

  /** Blocks `from`..`to` with their payments, read in a few requests (ChainAdapter.scanRange). */
  async function readRun(from: number, to: number): Promise<Run> {
    const { owners, lookup } = ownersLookup();
    const blocks = (await adapter.scanRange?.(from, to, lookup)) ?? [];
    return { from, blocks, owners };
  }

  /** A cursor to start from: one block below the start, so the start block is processed. */
  async function ensureCursor(tip: number) {
    const existing = await repo.cursor(pool, chain);
    if (existing) return existing;
    const start = Math.max(0, Math.min(deps.startHeight ?? tip, tip));
    const below = start > 0 ? await adapter.blockAt(start - 1) : null;
    if (start > 0 && !below) throw new Error(`the node has no block ${start - 1}`);
    await repo.createCursor(pool, chain, start - 1, below?.hash ?? '', below);
    const created = await repo.cursor(pool, chain);
    if (!created) throw new Error('chain cursor vanished');
    return created;
  }

  /** The height where the node's chain and the stored blocks agree, walking down from `from`. */
  async function commonAncestor(from: number): Promise<{ height: number; hash: string }> {
    for (let h = from; h >= 0; h--) {
      const stored = await repo.storedBlock(pool, chain, h);
      if (!stored) break;
      const onNode = await adapter.blockAt(h);
      if (onNode && onNode.hash === stored.block_hash)
        return { height: h, hash: stored.block_hash };
    }
    // Deeper than the blocks kept: nothing the watcher can prove; staff must look.
    throw new Error(
      `the chain changed deeper than the ${KEEP_BLOCKS} blocks kept (below height ${from}); the watcher stopped`,
    );
  }

  async function rollBack(
    expected: { height: number; hash: string },
    to: { height: number; hash: string },
  ): Promise<boolean> {
    return withTransaction(pool, async (client) => {
      const cursor = await repo.lockCursor(client, chain);
      if (!cursor || cursor.height !== expected.height || cursor.block_hash !== expected.hash)
        return false;
      for (const d of await repo.lockDepositsAbove(client, chain, to.height)) {
        await leaveChain(client, d);
      }
      await repo.dropBlocksAbove(client, chain, to.height);
      await deps.payouts?.onRollBack(client, to.height);
      await repo.rewindCursor(client, chain, to);
      deps.log.warn(
        { chain, from: expected.height, to: to.height },
        'chain reorganisation: rolled back to the common ancestor',
      );
      return true;
    });
  }

  /**
   * A deposit whose block left the chain. Not yet credited: it is marked orphaned and its
   * pending ledger row failed. Credited: the money is never taken back silently; the
   * deposit is marked reversed-on-chain and staff are told (audit log, Chains screen).
   */
  async function leaveChain(client: TxClient, d: ChainDepositRow) {
    if (d.status === 'confirming') {
      await repo.setStatus(client, d.id, 'orphaned');
      if (d.transaction_id) {
        await deps.ledger.changeStatus(client, d.transaction_id, 'failed', {
          reason: ORPHANED_REASON,
          processedBy: null,
        });
      }
      return;
    }
    await repo.setStatus(client, d.id, 'reversed-on-chain');
    await deps.audit.record(client, {
      actorId: null,
      action: 'chain.deposit.reversed',
      targetType: 'chain_deposit',
      targetId: d.id,
      targetUserId: d.user_id,
      before: { status: d.status, blockHeight: d.block_height, blockHash: d.block_hash },
      after: { status: 'reversed-on-chain' },
      reason: `A credited ${d.asset_id} deposit (${d.tx_hash}) is no longer on the ${chain} chain after a reorganisation. It was not debited: staff must resolve it.`,
    });
  }

  /**
   * A payment `recordAll` cannot simply add: one already recorded (seen again in another
   * block, after a reorganisation), or one whose chain hash the ledger already has (staff
   * credited it by hand, or it is a later output of a transaction recorded before). Runs
   * under recordAll's locks of the hashes, which manual credits take too.
   */
  async function recordKnown(client: TxClient, block: BlockRef, p: Payment) {
    const { t, owner, txHash, assetId } = p;
    const existing = await repo.lockDeposit(client, chain, txHash, t.outputIndex);
    if (existing) {
      if (existing.block_hash === block.hash && existing.status !== 'orphaned') return;
      // The same payment in another block (after a reorganisation): it moves there.
      if (existing.status === 'reversed-on-chain' || existing.status === 'credited') {
        await repo.moveDeposit(client, existing.id, {
          blockHeight: block.height,
          blockHash: block.hash,
          status: 'credited',
        });
        if (existing.status === 'reversed-on-chain') {
          await deps.audit.record(client, {
            actorId: null,
            action: 'chain.deposit.returned',
            targetType: 'chain_deposit',
            targetId: existing.id,
            targetUserId: existing.user_id,
            before: { status: existing.status },
            after: { status: 'credited', blockHeight: block.height, blockHash: block.hash },
            reason: `The credited deposit ${txHash} is back on the ${chain} chain, in block ${block.height}.`,
          });
        }
        return;
      }
      await repo.moveDeposit(client, existing.id, {
        blockHeight: block.height,
        blockHash: block.hash,
        status: 'confirming',
      });
      if (existing.status === 'orphaned' && existing.transaction_id) {
        await deps.ledger.changeStatus(client, existing.transaction_id, 'pending', {
          processedBy: null,
        });
      }
      return;
    }
    const inLedger = await repo.ledgerDepositWithHash(client, assetId, txHash);
    if (!inLedger) throw new Error(`the ledger row of ${txHash} vanished under its lock`);
    const earlierOutput = (await repo.depositsOfTx(client, chain, txHash)).some(
      (d) => d.asset_id === assetId,
    );
    /** The deposit as first seen, with the ledger row that stands for it. */
    const insert = (status: 'credited' | 'confirming', transactionId: string) =>
      repo.insertDeposit(client, {
        chain,
        txHash,
        outputIndex: t.outputIndex,
        address: owner.address,
        userId: owner.userId,
        assetId,
        amountMinor: t.amountMinor,
        blockHeight: block.height,
        blockHash: block.hash,
        confirmations: 0,
        status,
        transactionId,
      });
    if (!earlierOutput) {
      // Staff credited this transaction by hand before the watcher saw it: it is recorded
      // as credited by that row and never credited again.
      await insert('credited', inLedger.id);
      return;
    }
    // A later output of a recorded transaction: the ledger keeps one deposit per chain hash
    // and asset, so this one carries the hash in its memo.
    const [row] = await deps.ledger.postPendingDeposits(client, [pendingDeposit(p, false)]);
    if (!row) throw new Error(`the deposit of ${txHash} was not written`);
    await insert('confirming', row.id);
  }

  /** The pending ledger row of a payment; `carriesHash` false puts the hash in the memo. */
  function pendingDeposit(p: Payment, carriesHash: boolean): PendingDepositInput {
    const asset = ASSETS[p.assetId];
    return {
      userId: p.owner.userId,
      assetId: asset.id,
      amount: p.t.amountMinor,
      usdAmount: mulPrice(
        p.t.amountMinor,
        asset.decimals,
        deps.prices.current().quotes[asset.id].priceUsd,
      ),
      transactionHash: carriesHash ? p.txHash : null,
      memo: carriesHash ? null : `${p.txHash}:${p.t.outputIndex}`,
    };
  }

  /**
   * Records a block's payments to watched addresses. The usual case, a transaction seen for
   * the first time and never credited by hand, is written for the whole block in a few
   * statements; anything else (a deposit seen before, in another block; a hash staff
   * credited; a later output of a transaction already recorded) goes through `record`.
   */
  async function recordAll(
    client: TxClient,
    block: BlockRef,
    payments: Array<{ t: SeenTransfer; owner: Owner }>,
  ) {
    if (payments.length === 0) return;
    const items = payments.map(({ t, owner }): Payment => {
      const hash = normalizeTxHash(t.assetId, t.txHash);
      if (!hash.ok) throw new Error(`the node gave a malformed transaction hash ${t.txHash}`);
      return { t, owner, txHash: hash.value, assetId: t.assetId };
    });
    // The locks a manual credit of these hashes takes (deposits module), in one order.
    const lockKeys = [
      ...new Set(items.map((i) => `deposit:${i.assetId}:${i.txHash.toLowerCase()}`)),
    ].sort();
    await repo.lockKeys(client, lockKeys);
    const seen = new Set(
      (
        await repo.lockDepositsOf(
          client,
          chain,
          items.map((i) => ({ txHash: i.txHash, outputIndex: i.t.outputIndex })),
        )
      ).map((d) => `${d.tx_hash}/${d.output_index}`),
    );
    const inLedger = await repo.ledgerDepositHashes(
      client,
      items.map((i) => ({ assetId: i.assetId, hash: i.txHash })),
    );
    const fresh = items.filter(
      (i) =>
        !seen.has(`${i.txHash}/${i.t.outputIndex}`) && !inLedger.has(`${i.assetId}/${i.txHash}`),
    );
    for (const i of items) if (!fresh.includes(i)) await recordKnown(client, block, i);
    if (fresh.length === 0) return;
    // The ledger keeps one deposit per chain hash and asset: a transaction's first output
    // carries the hash, its later outputs carry it in the memo (as `record` does).
    fresh.sort((a, b) => a.t.outputIndex - b.t.outputIndex);
    const first = new Set<string>();
    const rows = await deps.ledger.postPendingDeposits(
      client,
      fresh.map((i) => {
        const carriesHash = !first.has(`${i.assetId}/${i.txHash}`);
        first.add(`${i.assetId}/${i.txHash}`);
        return pendingDeposit(i, carriesHash);
      }),
    );
    await repo.insertConfirming(
      client,
      chain,
      block,
      fresh.map((i, k) => ({
        txHash: i.txHash,
        outputIndex: i.t.outputIndex,
        address: i.owner.address,
        userId: i.owner.userId,
        assetId: i.assetId,
        amountMinor: i.t.amountMinor,
        transactionId: (rows[k] as { id: string }).id,
      })),
    );
  }

  /** Completes the deposits that reached `required` confirmations at `height`, each once. */
  async function creditConfirmed(client: TxClient, height: number, required: number) {
    const waiting = await repo.confirmingUsers(client, chain);
    if (waiting.length > 0) await deps.onConfirmations?.(client, waiting);
    const due = (await repo.dueDeposits(client, chain, height, required)).filter(
      (d) => d.transaction_id,
    );
    if (due.length === 0) return;
    const completed = await deps.ledger.completeDeposits(
      client,
      due.map((d) => d.transaction_id as string),
    );
    await repo.markCredited(
      client,
      due.map((d) => d.id),
    );
    // A mail for each deposit that reached the balance here (not one staff settled by hand).
    const done = new Set(completed.map((r) => r.id));
    const arrived = due.filter((d) => d.transaction_id && done.has(d.transaction_id));
    const emails = await repo.emailsOf(client, [...new Set(arrived.map((d) => d.user_id))]);
    await deps.outbox.mailMany(
      client,
      arrived.flatMap((d) => {
        const to = emails.get(d.user_id);
        if (!to) return [];
        const asset = ASSETS[d.asset_id as TAssetId];
        const amount = formatAmount(BigInt(d.amount_minor), asset.decimals, {
          minFractionDigits: 0,
          maxFractionDigits: asset.decimals,
        });
        return [
          {
            to,
            subject: `Your ${asset.symbol} deposit has arrived`,
            text: [
              `Your deposit of ${amount} ${asset.symbol} is confirmed and now in your balance.`,
              '',
              `Transaction hash: ${d.tx_hash}`,
              `Confirmations: ${d.confirmations}`,
              '',
              `Your history: ${deps.publicUrl}/dashboard/history`,
            ].join('\n'),
          },
        ];
      }),
    );
    for (const d of due) {
      deps.log.info(
        { chain, deposit: d.id, transaction: d.transaction_id, confirmations: d.confirmations },
        done.has(d.transaction_id as string)
          ? 'chain deposit credited'
          : 'chain deposit confirmed; its ledger row was already settled by staff',
      );
    }
  }

  /**
   * Records a block read from the node on top of `cursor`, in one transaction that goes on
   * only if the cursor still is where the watcher read it ('raced' otherwise).
   */
  async function apply(
    cursor: { height: number; block_hash: string },
    scanned: ScannedBlock,
    owners: ReadonlyMap<string, Owner>,
    tip: number,
    required: number,
    evidence: ChainTransaction[],
  ): Promise<'advanced' | 'raced'> {
    const { block, transfers } = scanned;
    return withTransaction(pool, async (client) => {
      const locked = await repo.lockCursor(client, chain);
      if (!locked || locked.height !== cursor.height || locked.block_hash !== cursor.block_hash)
        return 'raced';
      await recordAll(
        client,
        block,
        transfers.flatMap((t) => {
          const owner = owners.get(t.matchKey);
          if (!owner || !adapter.assets.includes(t.assetId) || t.amountMinor <= 0n) return [];
          return [{ t, owner }];
        }),
      );
      await repo.storeBlock(client, chain, block, KEEP_BLOCKS);
      await repo.advanceCursor(client, chain, {
        height: block.height,
        blockHash: block.hash,
        nodeTip: tip,
        blockTime: block.time,
      });
      // Confirmations count from the blocks the watcher has checked, never from a tip it
      // has not: a node on another fork cannot make a deposit look deeper than it is.
      await creditConfirmed(client, block.height, required);
      await deps.payouts?.onBlock(client, block, evidence, required);
      return 'advanced';
    });
  }

  /** One step: the next block, a rollback, or nothing new. */
  async function step(
    tip: number,
    required: number,
  ): Promise<'advanced' | 'rolled-back' | 'raced' | 'caught-up'> {
    const cursor = await ensureCursor(tip);
    const next = cursor.height < tip ? await adapter.blockAt(cursor.height + 1) : null;
    if (!next) {
      // Nothing above the cursor: the reorg to check for is one that replaced its block.
      if (cursor.block_hash === '') return 'caught-up';
      const same = await adapter.blockAt(cursor.height);
      if (same && same.hash === cursor.block_hash) return 'caught-up';
      const ancestor = await commonAncestor(cursor.height - 1);
      const done = await rollBack({ height: cursor.height, hash: cursor.block_hash }, ancestor);
      return done ? 'rolled-back' : 'raced';
    }
    if (next.height !== cursor.height + 1) {
      throw new Error(`the node answered block ${next.height} when asked for ${cursor.height + 1}`);
    }
    if (cursor.block_hash !== '' && next.parentHash !== cursor.block_hash) {
      const ancestor = await commonAncestor(cursor.height);
      const done = await rollBack({ height: cursor.height, hash: cursor.block_hash }, ancestor);
      return done ? 'rolled-back' : 'raced';
    }
    const { owners, lookup } = ownersLookup();
    const transfers = await adapter.transfersIn(next, lookup);
    const evidence = await payoutEvidence(next);
    return apply(cursor, { block: next, transfers }, owners, tip, required, evidence);
  }

  /**
   * Catching up: runs of blocks read in a few requests each, the next run read while this
   * one is recorded. Each block is still its own transaction, checked against the cursor.
   * Stops at the first thing it cannot simply record (a block that does not follow the
   * cursor, an empty run): `step` then looks at it, with the rollbacks it may need.
   */
  async function catchUp(tip: number, required: number, budget: number): Promise<number> {
    let done = 0;
    let cursor = await ensureCursor(tip);
    let run: Promise<Run> | null = null;
    while (done < budget && tip - cursor.height > 1) {
      const current: Run = await (run ??
        readRun(cursor.height + 1, Math.min(tip, cursor.height + RANGE_BLOCKS)));
      run = null;
      const first = current.blocks[0];
      if (!first || current.from !== cursor.height + 1) break;
      const last = current.blocks.at(-1) as ScannedBlock;
      if (last.block.height < tip && done + current.blocks.length < budget) {
        run = readRun(last.block.height + 1, Math.min(tip, last.block.height + RANGE_BLOCKS));
        // Dropped unread if this run stops early; its failure then matters to no one.
        run.catch(() => {});
      }
      for (const scanned of current.blocks) {
        const follows =
          scanned.block.height === cursor.height + 1 &&
          (cursor.block_hash === '' || scanned.block.parentHash === cursor.block_hash);
        if (!follows) return done;
        const evidence = await payoutEvidence(scanned.block);
        const outcome = await apply(cursor, scanned, current.owners, tip, required, evidence);
        if (outcome !== 'advanced') return done;
        done++;
        cursor = { ...cursor, height: scanned.block.height, block_hash: scanned.block.hash };
      }
    }
    return done;
  }

  return {
    chain,

    /**
     * Follows the node as far as it goes (at most `maxBlocksPerTick` blocks). A failure is
     * recorded on the cursor and the next tick waits, doubling the wait per failure; the
     * node's silence is never read as "no deposits": the cursor stays where it was.
     */
    async tick(): Promise<TickResult> {
      if (now() < nextTryAt) return { state: 'waiting', until: nextTryAt };
      try {
        const tip = await adapter.tip();
        if (!Number.isSafeInteger(tip) || tip < 0) throw new Error(`the node gave tip ${tip}`);
        const cursor = await ensureCursor(tip);
        await repo.noteTip(pool, chain, tip);
        if (tip < cursor.height) {
          // Below the blocks already checked. If the node's block at its tip is not the one
          // the watcher checked there, its chain changed to a shorter one (a reorganisation,
          // `invalidateblock`): roll back like any reorg. Otherwise it is only behind (a
          // lagging or restarted node): reported, and nothing is undone while it catches up.
          const stored = await repo.storedBlock(pool, chain, tip);
          const onNode = await adapter.blockAt(tip);
          if (!stored || !onNode || stored.block_hash === onNode.hash) {
            throw new Error(
              `the node's tip ${tip} is below the watcher's height ${cursor.height}; waiting for it to catch up`,
            );
          }
          const ancestor = await commonAncestor(tip - 1);
          await rollBack({ height: cursor.height, hash: cursor.block_hash }, ancestor);
        }
        await keyNewAddresses();
        const required = await requiredConfirmations();
        let blocks = adapter.scanRange ? await catchUp(tip, required, maxBlocks) : 0;
        for (let i = blocks; i < maxBlocks; i++) {
          const outcome = await step(tip, required);
          if (outcome === 'caught-up') break;
          if (outcome === 'advanced') blocks++;
        }
        const at = (await repo.cursor(pool, chain))?.height ?? cursor.height;
        // Re-sending is best effort: its failures are logged and never stop the watcher.
        await deps.payouts?.afterTick().catch((err: unknown) => {
          deps.log.warn({ chain, err: String(err) }, 'payout re-send check failed');
        });
        failures = 0;
        nextTryAt = 0;
        return { state: 'ok', blocks, height: at, tip };
      } catch (err) {
        failures++;
        nextTryAt = now() + Math.min(backoff.max, backoff.first * 2 ** (failures - 1));
        const message = err instanceof Error ? err.message : String(err);
        deps.log.warn({ chain, err: message, failures }, 'chain watcher failed; retrying later');
        await repo.noteError(pool, chain, message).catch(() => {});
        return { state: 'failed', error: message };
      }
    },

    /** Lets the next tick run at once (a test's clock, or an operator's retry). */
    retryNow() {
      nextTryAt = 0;
    },
  };
}

export type ChainWatcher = ReturnType<typeof createChainWatcher>;
