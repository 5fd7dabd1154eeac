import type { TxClient } from '@server/db/tx';
import { payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { payoutsRepository as payoutsRepo } from './payouts.repository';
import { returned, type SettlementContext } from './settlement-context';

/**
 * What a block's height makes due: conflicts with the chain's confirmations return their
 * payouts to approved (a batch abandoned, its inputs released), and payouts whose block has
 * them are completed in the ledger.
 */

export async function settleDue(
  ctx: SettlementContext,
  client: TxClient,
  height: number,
  required: number,
) {
  const { chain } = ctx;
  for (const batch of await batchesRepo.dueConflicts(client, chain, height, required)) {
    await batchesRepo.setBatchState(client, batch.id, 'abandoned');
    for (const c of await batchesRepo.lockCandidates(client, batch.id)) {
      if (c.state === 'unsigned' || c.state === 'broadcast')
        await batchesRepo.setCandidateState(client, c.id, 'conflicted');
    }
    await outputsRepo.releaseInputs(client, batch.id);
    const ids = (await payoutsRepo.payoutsOfBatch(client, batch.id))
      .filter((p) => p.state !== 'completed')
      .map((p) => p.transaction_id);
    await returned(
      ctx,
      client,
      ids,
      `Transaction ${batch.conflict_hash} spent this batch's inputs and is confirmed: the batch can no longer confirm, so its payouts are approved again.`,
      batch.id,
    );
  }
  for (const c of await batchesRepo.dueNonceConflicts(client, chain, height, required)) {
    await batchesRepo.setCandidateState(client, c.id, 'conflicted');
    const payoutId = (c.built as { payoutId: string }).payoutId;
    await returned(
      ctx,
      client,
      [payoutId],
      `Nonce ${c.nonce} was used by transaction ${c.conflict_hash}, now confirmed: this payout's transaction can no longer confirm, so it is approved again.`,
      c.batch_id,
    );
    const rest = await batchesRepo.lockCandidates(client, c.batch_id);
    if (rest.every((r) => ['conflicted', 'replaced'].includes(r.state))) {
      await batchesRepo.setBatchState(client, c.batch_id, 'abandoned');
    }
  }
  for (const p of await payoutsRepo.dueCompletions(client, chain, height, required)) {
    if (!p.tx_hash) continue;
    await ctx.withdrawals.settle(client, p.transaction_id, {
      transactionHash: p.tx_hash,
      processedBy: p.approved_by,
    });
    await payoutsRepo.setPayoutState(client, p.transaction_id, { state: 'completed' });
    if (p.batch_id) {
      const all = await payoutsRepo.payoutsOfBatch(client, p.batch_id);
      if (all.every((x) => x.state === 'completed'))
        await batchesRepo.setBatchState(client, p.batch_id, 'completed');
    }
  }
}
