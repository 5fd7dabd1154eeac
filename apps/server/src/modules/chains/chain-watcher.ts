import { ensureChainChecked } from './chain-config';
import { chainWatchErrorsRepository as watchErrors } from './chain-watch-errors.repository';
import { notePayoutProblems } from './watcher-blocks';
import { createWatcherContext, type WatcherDeps } from './watcher-context';
import { follow } from './watcher-follow';

export { KEEP_BLOCKS, type WatcherDeps } from './watcher-context';

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
 *
 * Composed of parts over one context (`watcher-context.ts`): reading blocks and the cursor
 * (`watcher-blocks.ts`), following the node (`watcher-follow.ts`), reorganisations
 * (`watcher-reorg.ts`), recording deposits (`watcher-record.ts`) and crediting them
 * (`watcher-credit.ts`). Here: the failures and their backoff, and the payouts' re-sends.
 */
export function createChainWatcher(deps: WatcherDeps) {
  const ctx = createWatcherContext(deps);
  const { chain } = ctx;
  const now = deps.now ?? Date.now;
  const backoff = deps.backoffMs ?? { first: 2_000, max: 60_000 };
  const maxBlocks = deps.maxBlocksPerTick ?? 500;
  let failures = 0;
  let nextTryAt = 0;

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
        // A chain whose start-up check did not pass yet (its node hung at the start) is
        // checked first: a failure is this poll's, recorded and retried like any other.
        await ensureChainChecked(deps.adapter);
        const { blocks, height, tip } = await follow(ctx, maxBlocks);
        // Re-sending is best effort: its failures are logged and never stop the watcher.
        const problems = await deps.payouts?.afterTick().catch((err: unknown) => {
          deps.log.warn({ chain, err: String(err) }, 'payout re-send check failed');
          return undefined;
        });
        await notePayoutProblems(ctx, problems, now()).catch(() => {});
        failures = 0;
        nextTryAt = 0;
        return { state: 'ok', blocks, height, tip };
      } catch (err) {
        failures++;
        nextTryAt = now() + Math.min(backoff.max, backoff.first * 2 ** (failures - 1));
        const message = err instanceof Error ? err.message : String(err);
        deps.log.warn({ chain, err: message, failures }, 'chain watcher failed; retrying later');
        await watchErrors.noteError(deps.pool, chain, message).catch(() => {});
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
