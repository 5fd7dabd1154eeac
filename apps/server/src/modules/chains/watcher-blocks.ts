import type { BlockRef, ChainTransaction, WatchedLookup } from './chain-adapter';
import { type ChainCursor, chainCursorsRepository as cursors } from './chain-cursors.repository';
import { chainWatchErrorsRepository as watchErrors } from './chain-watch-errors.repository';
import { watchedAddressesRepository as addresses } from './watched-addresses.repository';
import type { Owner, Run, WatcherContext } from './watcher-context';

/** Addresses keyed per query (keyNewAddresses). */
const KEY_BATCH = 1_000;

/**
 * Works out the match key of every address that has none yet (new or changed ones, from
 * any path), so a block's payees can be looked up by key. Called after the tip is read:
 * an address handed out before a payment in any block up to that tip is keyed by then.
 */
export async function keyNewAddresses(ctx: WatcherContext): Promise<void> {
  for (;;) {
    const rows = await addresses.unkeyedAddresses(ctx.pool, ctx.symbolNetworks, KEY_BATCH);
    if (rows.length === 0) return;
    await addresses.setMatchKeys(
      ctx.pool,
      rows.map((r) => ({ id: r.id, key: ctx.adapter.matchKeyOf(r.address) ?? '' })),
    );
    if (rows.length < KEY_BATCH) return;
  }
}

/** A lookup for one read of the node, and the owners it found (key → customer, address). */
export function ownersLookup(ctx: WatcherContext): {
  owners: Map<string, Owner>;
  lookup: WatchedLookup;
} {
  const owners = new Map<string, Owner>();
  const lookup: WatchedLookup = async (keys) => {
    for (const row of await addresses.ownersOf(ctx.pool, ctx.symbolNetworks, keys)) {
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
export async function payoutEvidence(
  ctx: WatcherContext,
  block: BlockRef,
): Promise<ChainTransaction[]> {
  const payouts = ctx.deps.payouts;
  if (!payouts) return [];
  const watch = await payouts.watch();
  return watch ? payouts.node.payoutEvidence(block, watch) : [];
}

/** Blocks `from`..`to` with their payments, read in a few requests (ChainAdapter.scanRange). */
export async function readRun(ctx: WatcherContext, from: number, to: number): Promise<Run> {
  const { owners, lookup } = ownersLookup(ctx);
  const blocks = (await ctx.adapter.scanRange?.(from, to, lookup)) ?? [];
  return { from, blocks, owners };
}

/** A cursor to start from: one block below the start, so the start block is processed. */
export async function ensureCursor(ctx: WatcherContext, tip: number): Promise<ChainCursor> {
  const { pool, chain, adapter } = ctx;
  const existing = await cursors.cursor(pool, chain);
  if (existing) return existing;
  const start = Math.max(0, Math.min(ctx.deps.startHeight ?? tip, tip));
  const below = start > 0 ? await adapter.blockAt(start - 1) : null;
  if (start > 0 && !below) throw new Error(`the node has no block ${start - 1}`);
  await cursors.createCursor(pool, chain, start - 1, below?.hash ?? '', below);
  const created = await cursors.cursor(pool, chain);
  if (!created) throw new Error('chain cursor vanished');
  return created;
}

/** A payout problem found after a tick is recorded again at most this often while it lasts. */
const PAYOUT_NOTE_EVERY_MS = 10 * 60_000;

/**
 * The payouts' problems after a tick (a nonce gap): logged and recorded for `chain-status`,
 * each at most once in `PAYOUT_NOTE_EVERY_MS` while it lasts (a tick runs every few seconds).
 */
export async function notePayoutProblems(
  ctx: WatcherContext,
  problems: readonly string[] | undefined,
  now: number,
): Promise<void> {
  for (const problem of problems ?? []) {
    const last = ctx.payoutNotes.get(problem);
    if (last !== undefined && now - last < PAYOUT_NOTE_EVERY_MS) continue;
    ctx.payoutNotes.set(problem, now);
    ctx.deps.log.warn({ chain: ctx.chain, problem }, 'payout problem');
    await watchErrors.notePayoutProblem(ctx.pool, ctx.chain, problem);
  }
  // Forget what has not come back, so a problem that returns is recorded at once.
  for (const key of ctx.payoutNotes.keys())
    if (!problems?.includes(key)) ctx.payoutNotes.delete(key);
}
