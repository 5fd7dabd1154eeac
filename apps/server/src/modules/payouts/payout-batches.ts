import type { TAssetId, TPayoutBatch, TPayoutChain } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { buildBitcoin } from './bitcoin-batch-builder';
import { buildEthereum } from './ethereum-batch-builder';
import { payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
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
 * `beforeCommit` receives the unsigned file inside the build's transaction (the CLI writes
 * it there): if it throws, nothing is kept and the payouts stay approved.
 */
export async function buildBatch(
  ctx: PayoutsContext,
  actor: BatchActor,
  chain: TPayoutChain,
  beforeCommit?: (file: string) => Promise<void> | void,
): Promise<{ batch: TPayoutBatch; file: string }> {
  const built = await withTransaction(ctx.pool, async (client) => {
    await batchesRepo.lockBuild(client, chain);
    const approved = await payoutsRepo.lockApproved(client, chain, CHAIN_ASSETS[chain]);
    if (approved.length === 0) throw new AppError('CONFLICT', PAYOUT_MSG.noneWaiting);
    // After the payout rows are locked, as every other caller takes its step-up (its
    // advisory lock before the rows would deadlock with a rejection of one of them).
    await actor.stepUp?.(client);
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
    const file = fileOf(batch, candidates);
    await beforeCommit?.(file);
    return { batch, file };
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

/**
 * Abandons a built batch nobody signed, in one transaction: the batch 'abandoned', its
 * unsigned transactions 'abandoned' (their Ethereum nonces leave the live-nonce index, so
 * the next build uses them again), its Bitcoin inputs released, its payouts approved again
 * with a reason saying so, and the audit row. Only while none of its transactions was
 * recorded as signed: one that was may be on the network and still confirm, so the batch
 * waits for the chain instead (409 saying so). The build lock and the batch's row lock make
 * parallel abandons, and an abandon racing a submit or a build, one after the other: the
 * later one finds the batch changed and is refused, nothing half done. The step-up is
 * confirmed after every check.
 */
export async function abandonBatch(
  ctx: PayoutsContext,
  actor: BatchActor,
  batchId: string,
): Promise<TPayoutBatch> {
  if (!UUID.test(batchId)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
  const abandoned = await withTransaction(ctx.pool, async (client) => {
    const found = await batchesRepo.batch(client, batchId);
    if (!found) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    // Builds take this lock before they read free inputs and nonces: none reads half of it.
    await batchesRepo.lockBuild(client, found.chain);
    const batch = await batchesRepo.lockBatch(client, batchId);
    if (!batch) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    if (batch.state !== 'built')
      throw new AppError('CONFLICT', PAYOUT_MSG.abandonState(batch.state));
    const candidates = await batchesRepo.lockCandidates(client, batch.id);
    const signed = candidates.find((c) => c.state !== 'unsigned' || c.signed_hex !== null);
    if (signed) {
      throw new AppError(
        'CONFLICT',
        PAYOUT_MSG.abandonSigned(signed.tx_hash ?? `nonce ${signed.nonce}`),
      );
    }
    const payouts = await payoutsRepo.payoutsOfBatch(client, batch.id);
    await actor.stepUp?.(client);
    await batchesRepo.setBatchState(client, batch.id, 'abandoned');
    const freed = await batchesRepo.abandonUnsigned(client, batch.id);
    if (batch.chain === 'bitcoin') await outputsRepo.releaseInputs(client, batch.id);
    const returned = await payoutsRepo.returnAbandoned(
      client,
      batch.id,
      PAYOUT_MSG.abandonedReason(batch.id.slice(0, 8)),
    );
    await ctx.audit.record(client, {
      actorId: actor.id,
      action: 'payouts.batch.abandon',
      targetType: 'payout_batch',
      targetId: batch.id,
      targetUserId: null,
      before: { state: batch.state, payouts: payouts.map((p) => p.transaction_id) },
      after: {
        state: 'abandoned',
        transactions: freed,
        nonces: candidates.flatMap((c) => (c.nonce === null ? [] : [c.nonce])),
        approvedAgain: returned,
      },
      reason: null,
      ip: actor.ip,
    });
    return { ...batch, state: 'abandoned' };
  });
  return batchView(ctx, ctx.pool, abandoned);
}
