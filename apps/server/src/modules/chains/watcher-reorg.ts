import { type TxClient, withTransaction } from '@server/db/tx';
import { chainCursorsRepository as cursors } from './chain-cursors.repository';
import {
  type ChainDeposit,
  chainDepositsRepository as deposits,
} from './chain-deposits.repository';
import { KEEP_BLOCKS, type WatcherContext } from './watcher-context';

const ORPHANED_REASON =
  'This deposit left the blockchain in a reorganisation before it was confirmed.';

/** The height where the node's chain and the stored blocks agree, walking down from `from`. */
export async function commonAncestor(
  ctx: WatcherContext,
  from: number,
): Promise<{ height: number; hash: string }> {
  for (let h = from; h >= 0; h--) {
    const stored = await cursors.storedBlock(ctx.pool, ctx.chain, h);
    if (!stored) break;
    const onNode = await ctx.adapter.blockAt(h);
    if (onNode && onNode.hash === stored.block_hash) return { height: h, hash: stored.block_hash };
  }
  // Deeper than the blocks kept: nothing the watcher can prove; staff must look.
  throw new Error(
    `the chain changed deeper than the ${KEEP_BLOCKS} blocks kept (below height ${from}); the watcher stopped`,
  );
}

/**
 * Rolls the cursor back from `expected` to the common ancestor `to`, in one transaction that
 * goes on only if the cursor still is at `expected` (false otherwise): the deposits above it
 * leave the chain, its blocks are forgotten, and payouts settled above it are unsettled.
 */
export async function rollBack(
  ctx: WatcherContext,
  expected: { height: number; hash: string },
  to: { height: number; hash: string },
): Promise<boolean> {
  const { chain, deps } = ctx;
  return withTransaction(ctx.pool, async (client) => {
    const cursor = await cursors.lockCursor(client, chain);
    if (!cursor || cursor.height !== expected.height || cursor.block_hash !== expected.hash)
      return false;
    for (const d of await deposits.lockDepositsAbove(client, chain, to.height)) {
      await leaveChain(ctx, client, d);
    }
    await cursors.dropBlocksAbove(client, chain, to.height);
    await deps.payouts?.onRollBack(client, to.height);
    await cursors.rewindCursor(client, chain, to);
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
async function leaveChain(ctx: WatcherContext, client: TxClient, d: ChainDeposit) {
  if (d.status === 'confirming') {
    await deposits.setStatus(client, d.id, 'orphaned');
    if (d.transaction_id) {
      await ctx.deps.ledger.changeStatus(client, d.transaction_id, 'failed', {
        reason: ORPHANED_REASON,
        processedBy: null,
      });
    }
    return;
  }
  await deposits.setStatus(client, d.id, 'reversed-on-chain');
  await ctx.deps.audit.record(client, {
    actorId: null,
    action: 'chain.deposit.reversed',
    targetType: 'chain_deposit',
    targetId: d.id,
    targetUserId: d.user_id,
    before: { status: d.status, blockHeight: d.block_height, blockHash: d.block_hash },
    after: { status: 'reversed-on-chain' },
    reason: `A credited ${d.asset_id} deposit (${d.tx_hash}) is no longer on the ${ctx.chain} chain after a reorganisation. It was not debited: staff must resolve it.`,
  });
}
