import { TYPED_HASH_EXPIRY_HOURS } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';
import {
  isolated,
  returned,
  reversed,
  type SettlementContext,
  type SettlementProblems,
} from './settlement-context';

/**
 * What a block's height makes due: conflicts with the chain's confirmations return their
 * payouts to approved (a batch abandoned, its inputs released) or, for a payout already
 * completed, flag it 'reversed-on-chain' for staff; payouts whose block has them are
 * completed in the ledger, once (a payout completed before a reorganisation is completed
 * again without touching its ledger row); typed hashes the chain never showed expire.
 * Each runs alone (`isolated`): a failure is reported in `problems` and the rest go on.
 */

export async function settleDue(
  ctx: SettlementContext,
  client: TxClient,
  height: number,
  required: number,
  problems: SettlementProblems = [],
) {
  const { chain } = ctx;
  for (const batch of await batchesRepo.dueConflicts(client, chain, height, required)) {
    await isolated(ctx, client, problems, `the conflict of batch ${batch.id}`, async () => {
      await batchesRepo.setBatchState(client, batch.id, 'abandoned');
      for (const c of await batchesRepo.lockCandidates(client, batch.id)) {
        if (c.state === 'unsigned' || c.state === 'broadcast')
          await batchesRepo.setCandidateState(client, c.id, 'conflicted');
      }
      await outputsRepo.releaseInputs(client, batch.id);
      const payouts = (await payoutsRepo.payoutsOfBatch(client, batch.id)).filter(
        (p) => p.state !== 'completed' && p.state !== 'reversed-on-chain',
      );
      await settleConflict(
        ctx,
        client,
        payouts,
        `Transaction ${batch.conflict_hash} spent this batch's inputs and is confirmed: the batch can no longer confirm`,
        batch.id,
      );
    });
  }
  for (const c of await batchesRepo.dueNonceConflicts(client, chain, height, required)) {
    await isolated(ctx, client, problems, `the conflict of nonce ${c.nonce}`, async () => {
      await batchesRepo.setCandidateState(client, c.id, 'conflicted');
      const payoutId = (c.built as { payoutId: string }).payoutId;
      const reverted = c.conflict_hash === c.tx_hash;
      await settleConflict(
        ctx,
        client,
        await payoutsRepo.payoutsOf(client, [payoutId]),
        reverted
          ? `Transaction ${c.conflict_hash} reverted and is confirmed: it paid nothing and its nonce ${c.nonce} is used`
          : `Nonce ${c.nonce} was used by transaction ${c.conflict_hash}, now confirmed: this payout's transaction can no longer confirm`,
        c.batch_id,
      );
      const rest = await batchesRepo.lockCandidates(client, c.batch_id);
      if (rest.every((r) => ['conflicted', 'replaced'].includes(r.state))) {
        await batchesRepo.setBatchState(client, c.batch_id, 'abandoned');
      }
    });
  }
  for (const p of await payoutsRepo.dueCompletions(client, chain, height, required)) {
    await isolated(ctx, client, problems, `payout ${p.transaction_id}`, () =>
      complete(ctx, client, p),
    );
  }
  await expireTyped(ctx, client, problems);
}

/**
 * Payouts whose transaction can no longer confirm: those never completed are approved
 * again; a completed one is never paid again by Coffer alone ('reversed-on-chain').
 */
async function settleConflict(
  ctx: SettlementContext,
  client: TxClient,
  payouts: PayoutRow[],
  why: string,
  batchId: string,
) {
  const done = payouts.filter((p) => p.completed_at !== null && p.state !== 'reversed-on-chain');
  const open = payouts.filter((p) => p.completed_at === null);
  await returned(
    ctx,
    client,
    open.map((p) => p.transaction_id),
    `${why}, so its payouts are approved again.`,
    batchId,
  );
  await reversed(
    ctx,
    client,
    done,
    `${why}. The payout was completed (the customer debited): it is not paid again until staff re-send its signed transaction or return it.`,
  );
}

/** A payout whose block has the confirmations: its ledger row completed, once. */
async function complete(ctx: SettlementContext, client: TxClient, p: PayoutRow) {
  if (!p.tx_hash) return;
  if (p.completed_at === null) {
    await ctx.withdrawals.settle(client, p.transaction_id, {
      transactionHash: p.tx_hash,
      processedBy: p.approved_by,
    });
    await payoutsRepo.markCompleted(client, p.transaction_id);
  } else {
    // Mined again after a reorganisation took its block: the ledger row was completed
    // then and stays as it is.
    ctx.log.info(
      { chain: ctx.chain, payout: p.transaction_id, tx: p.tx_hash },
      'payout confirmed again after a reorganisation; its ledger row was already completed',
    );
  }
  await payoutsRepo.setPayoutState(client, p.transaction_id, { state: 'completed' });
  if (p.batch_id) {
    const all = await payoutsRepo.payoutsOfBatch(client, p.batch_id);
    if (all.every((x) => x.state === 'completed'))
      await batchesRepo.setBatchState(client, p.batch_id, 'completed');
  }
}

/** `typed_hash_expiry_hours`, or its default when unset or not a whole number in range. */
export function typedHashExpiryHours(settings: Map<string, string> | undefined): number {
  const n = Number(settings?.get('typed_hash_expiry_hours'));
  return Number.isInteger(n) && n >= TYPED_HASH_EXPIRY_HOURS.min && n <= TYPED_HASH_EXPIRY_HOURS.max
    ? n
    : TYPED_HASH_EXPIRY_HOURS.default;
}

/**
 * A hash staff typed that the chain has not shown within `typed_hash_expiry_hours`: the
 * payout is approved again (its hold stays), audited, and reported for staff.
 */
async function expireTyped(ctx: SettlementContext, client: TxClient, problems: SettlementProblems) {
  const hours = typedHashExpiryHours(await ctx.settings?.all(client));
  for (const p of await payoutsRepo.expiredTyped(client, ctx.chain, hours)) {
    await isolated(
      ctx,
      client,
      problems,
      `the typed hash of payout ${p.transaction_id}`,
      async () => {
        const reason = `The transaction staff gave (${p.tx_hash}) was not seen on the chain within ${hours} hour${hours === 1 ? '' : 's'}: the payout is approved again and stays held.`;
        const moved = await payoutsRepo.returnToApproved(client, [p.transaction_id], reason);
        if (moved.length === 0) return;
        ctx.log.warn(
          { chain: ctx.chain, payout: p.transaction_id, tx: p.tx_hash, hours },
          'a typed payout hash expired: the payout is approved again',
        );
        problems.push(`Payout ${p.transaction_id}: ${reason}`);
        await ctx.audit.record(client, {
          actorId: null,
          action: 'payouts.typed_expired',
          targetType: 'payout',
          targetId: p.transaction_id,
          targetUserId: null,
          before: { state: p.state, txHash: p.tx_hash, typedAt: p.typed_at?.toISOString() ?? null },
          after: { state: 'approved' },
          reason,
          ip: null,
        });
      },
    );
  }
}
