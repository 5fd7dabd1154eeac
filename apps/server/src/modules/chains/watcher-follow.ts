import { withTransaction } from '@server/db/tx';
import type { ChainTransaction, ScannedBlock } from './chain-adapter';
import { type ChainCursor, chainCursorsRepository as cursors } from './chain-cursors.repository';
import { chainWatchErrorsRepository as watchErrors } from './chain-watch-errors.repository';
import {
  ensureCursor,
  keyNewAddresses,
  ownersLookup,
  payoutEvidence,
  readRun,
} from './watcher-blocks';
import {
  KEEP_BLOCKS,
  type Owner,
  RANGE_BLOCKS,
  type Run,
  requiredConfirmations,
  type WatcherContext,
} from './watcher-context';
import { creditConfirmed } from './watcher-credit';
import { recordAll } from './watcher-record';
import { commonAncestor, rollBack } from './watcher-reorg';

/**
 * One tick's work: follows the node from the cursor up to its tip, at most `maxBlocks`
 * blocks, and says how many blocks it processed, where the cursor stands and the tip. Every
 * failure throws; the tick (chain-watcher.ts) records it and backs off.
 */
export async function follow(
  ctx: WatcherContext,
  maxBlocks: number,
): Promise<{ blocks: number; height: number; tip: number }> {
  const { pool, chain, adapter } = ctx;
  const tip = await adapter.tip();
  if (!Number.isSafeInteger(tip) || tip < 0) throw new Error(`the node gave tip ${tip}`);
  const cursor = await ensureCursor(ctx, tip);
  await cursors.noteTip(pool, chain, tip);
  if (tip < cursor.height) {
    // Below the blocks already checked. If the node's block at its tip is not the one
    // the watcher checked there, its chain changed to a shorter one (a reorganisation,
    // `invalidateblock`): roll back like any reorg. Otherwise it is only behind (a
    // lagging or restarted node): reported, and nothing is undone while it catches up.
    const stored = await cursors.storedBlock(pool, chain, tip);
    const onNode = await adapter.blockAt(tip);
    if (!stored || !onNode || stored.block_hash === onNode.hash) {
      throw new Error(
        `the node's tip ${tip} is below the watcher's height ${cursor.height}; waiting for it to catch up`,
      );
    }
    const ancestor = await commonAncestor(ctx, tip - 1);
    await rollBack(ctx, { height: cursor.height, hash: cursor.block_hash }, ancestor);
  }
  await keyNewAddresses(ctx);
  const required = await requiredConfirmations(ctx);
  let blocks = adapter.scanRange ? await catchUp(ctx, tip, required, maxBlocks) : 0;
  for (let i = blocks; i < maxBlocks; i++) {
    const outcome = await step(ctx, tip, required);
    if (outcome === 'caught-up') break;
    if (outcome === 'advanced') blocks++;
  }
  const height = (await cursors.cursor(pool, chain))?.height ?? cursor.height;
  return { blocks, height, tip };
}

/**
 * Records a block read from the node on top of `cursor`, in one transaction that goes on
 * only if the cursor still is where the watcher read it ('raced' otherwise).
 */
async function apply(
  ctx: WatcherContext,
  cursor: Pick<ChainCursor, 'height' | 'block_hash'>,
  scanned: ScannedBlock,
  owners: ReadonlyMap<string, Owner>,
  tip: number,
  required: number,
  evidence: ChainTransaction[],
): Promise<'advanced' | 'raced'> {
  const { chain, adapter } = ctx;
  const { block, transfers } = scanned;
  return withTransaction(ctx.pool, async (client) => {
    const locked = await cursors.lockCursor(client, chain);
    if (!locked || locked.height !== cursor.height || locked.block_hash !== cursor.block_hash)
      return 'raced';
    await recordAll(
      ctx,
      client,
      block,
      transfers.flatMap((t) => {
        const owner = owners.get(t.matchKey);
        if (!owner || !adapter.assets.includes(t.assetId) || t.amountMinor <= 0n) return [];
        return [{ t, owner }];
      }),
    );
    await cursors.storeBlock(client, chain, block, KEEP_BLOCKS);
    await cursors.advanceCursor(client, chain, {
      height: block.height,
      blockHash: block.hash,
      nodeTip: tip,
      blockTime: block.time,
    });
    // Confirmations count from the blocks the watcher has checked, never from a tip it
    // has not: a node on another fork cannot make a deposit look deeper than it is.
    await creditConfirmed(ctx, client, block.height, required);
    // A payout whose settlement failed was undone alone: recorded here, and the block,
    // its deposits and the cursor go on.
    const problems = (await ctx.deps.payouts?.onBlock(client, block, evidence, required)) ?? [];
    for (const problem of problems) {
      await watchErrors.notePayoutProblem(client, chain, `block ${block.height}: ${problem}`);
    }
    return 'advanced';
  });
}

/** One step: the next block, a rollback, or nothing new. */
async function step(
  ctx: WatcherContext,
  tip: number,
  required: number,
): Promise<'advanced' | 'rolled-back' | 'raced' | 'caught-up'> {
  const { adapter } = ctx;
  const cursor = await ensureCursor(ctx, tip);
  const next = cursor.height < tip ? await adapter.blockAt(cursor.height + 1) : null;
  if (!next) {
    // Nothing above the cursor: the reorg to check for is one that replaced its block.
    if (cursor.block_hash === '') return 'caught-up';
    const same = await adapter.blockAt(cursor.height);
    if (same && same.hash === cursor.block_hash) return 'caught-up';
    const ancestor = await commonAncestor(ctx, cursor.height - 1);
    const done = await rollBack(ctx, { height: cursor.height, hash: cursor.block_hash }, ancestor);
    return done ? 'rolled-back' : 'raced';
  }
  if (next.height !== cursor.height + 1) {
    throw new Error(`the node answered block ${next.height} when asked for ${cursor.height + 1}`);
  }
  if (cursor.block_hash !== '' && next.parentHash !== cursor.block_hash) {
    const ancestor = await commonAncestor(ctx, cursor.height);
    const done = await rollBack(ctx, { height: cursor.height, hash: cursor.block_hash }, ancestor);
    return done ? 'rolled-back' : 'raced';
  }
  const { owners, lookup } = ownersLookup(ctx);
  const transfers = await adapter.transfersIn(next, lookup);
  const evidence = await payoutEvidence(ctx, next);
  return apply(ctx, cursor, { block: next, transfers }, owners, tip, required, evidence);
}

/**
 * Catching up: runs of blocks read in a few requests each, the next run read while this
 * one is recorded. Each block is still its own transaction, checked against the cursor.
 * Stops at the first thing it cannot simply record (a block that does not follow the
 * cursor, an empty run): `step` then looks at it, with the rollbacks it may need.
 */
async function catchUp(
  ctx: WatcherContext,
  tip: number,
  required: number,
  budget: number,
): Promise<number> {
  let done = 0;
  let cursor: Pick<ChainCursor, 'height' | 'block_hash'> = await ensureCursor(ctx, tip);
  let run: Promise<Run> | null = null;
  while (done < budget && tip - cursor.height > 1) {
    const current: Run = await (run ??
      readRun(ctx, cursor.height + 1, Math.min(tip, cursor.height + RANGE_BLOCKS)));
    run = null;
    const first = current.blocks[0];
    if (!first || current.from !== cursor.height + 1) break;
    const last = current.blocks.at(-1) as ScannedBlock;
    if (last.block.height < tip && done + current.blocks.length < budget) {
      run = readRun(ctx, last.block.height + 1, Math.min(tip, last.block.height + RANGE_BLOCKS));
      // Dropped unread if this run stops early; its failure then matters to no one.
      run.catch(() => {});
    }
    for (const scanned of current.blocks) {
      const follows =
        scanned.block.height === cursor.height + 1 &&
        (cursor.block_hash === '' || scanned.block.parentHash === cursor.block_hash);
      if (!follows) return done;
      const evidence = await payoutEvidence(ctx, scanned.block);
      const outcome = await apply(ctx, cursor, scanned, current.owners, tip, required, evidence);
      if (outcome !== 'advanced') return done;
      done++;
      cursor = { height: scanned.block.height, block_hash: scanned.block.hash };
    }
  }
  return done;
}
