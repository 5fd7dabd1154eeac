import type { TAssetId, TPayoutBatch, TPayoutChain } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { buildBitcoin } from './bitcoin-batch-builder';
import { buildEthereum } from './ethereum-batch-builder';
import { payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import { payoutsRepository as payoutsRepo } from './payouts.repository';
import { type BatchActor, PAYOUT_MSG, type PayoutsContext, UUID } from './payouts-context';
import { batchView, fileNameOf, fileOf } from './payouts-view';

/** The assets each built chain pays. */
const CHAIN_ASSETS: Record<TPayoutChain, readonly TAssetId[]> = {
  bitcoin: ['BTC'],
  ethereum: ['ETH', 'USDT-ERC20'],
};

/**
 * Builds a batch of the chain's approved payouts, oldest first. One build per chain at a
 * time (an advisory lock): parallel builds never put one payout in two live batches.
 */
export async function buildBatch(
  ctx: PayoutsContext,
  actor: BatchActor,
  chain: TPayoutChain,
): Promise<{ batch: TPayoutBatch; file: string }> {
  const built = await withTransaction(ctx.pool, async (client) => {
    await batchesRepo.lockBuild(client, chain);
    await actor.stepUp?.(client);
    const approved = await payoutsRepo.lockApproved(client, chain, CHAIN_ASSETS[chain]);
    if (approved.length === 0) throw new AppError('CONFLICT', PAYOUT_MSG.noneWaiting);
    const batch =
      chain === 'bitcoin'
        ? await buildBitcoin(ctx, client, actor.id, approved)
        : await buildEthereum(ctx, client, actor.id, approved);
    const candidates = await batchesRepo.lockCandidates(client, batch.id);
    await ctx.audit.record(client, {
      actorId: actor.id,
      action: 'payouts.build',
      targetType: 'payout_batch',
      targetId: batch.id,
      targetUserId: null,
      before: null,
      after: {
        chain,
        payouts: (await payoutsRepo.payoutsOfBatch(client, batch.id)).map((p) => p.transaction_id),
        fee: candidates.reduce((s, c) => s + (c.fee_minor ?? 0n), 0n).toString(),
      },
      reason: null,
      ip: actor.ip,
    });
    return { batch, file: fileOf(batch, candidates) };
  });
  return { batch: await batchView(ctx, ctx.pool, built.batch), file: built.file };
}

/** The unsigned file of a batch (audited: it is what gets signed). */
export async function batchFile(
  ctx: PayoutsContext,
  actor: BatchActor,
  batchId: string,
): Promise<{ fileName: string; content: string }> {
  if (!UUID.test(batchId)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
  return withTransaction(ctx.pool, async (client) => {
    const batch = await batchesRepo.lockBatch(client, batchId);
    if (!batch) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    await actor.stepUp?.(client);
    const candidates = await batchesRepo.lockCandidates(client, batch.id);
    await ctx.audit.record(client, {
      actorId: actor.id,
      action: 'payouts.download',
      targetType: 'payout_batch',
      targetId: batch.id,
      targetUserId: null,
      before: null,
      after: { state: batch.state },
      reason: null,
      ip: actor.ip,
    });
    return { fileName: fileNameOf(batch), content: fileOf(batch, candidates) };
  });
}

/** The chain of a batch, for a submit that names it (404 when there is none). */
export async function chainOfBatch(ctx: PayoutsContext, batchId: string): Promise<TPayoutChain> {
  const batch = UUID.test(batchId) ? await batchesRepo.batch(ctx.pool, batchId) : null;
  if (!batch || (batch.chain !== 'bitcoin' && batch.chain !== 'ethereum'))
    throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
  return batch.chain;
}
