import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { ChangeKind } from '../staff-changes';
import { type ApprovalContext, assertMayDecide } from './payout-approval';
import {
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';
import { type BatchActor, PAYOUT_MSG, type PayoutsContext, UUID } from './payouts-context';
import { decimalOf } from './payouts-view';

/**
 * The two ways out for a payout 'reversed-on-chain' (completed, the customer debited, and
 * its transaction then left the chain for good), which Coffer never takes by itself: staff
 * re-send the signed bytes it recorded, or two staff return it to approved.
 */

export const PAYOUT_RETURN = 'payout.return';

type BuiltBitcoin = {
  payouts: Array<{ id: string }>;
  inputs: Array<{ txid: string; vout: number; amount: string | number }>;
};

const CHAIN_NAMES: Record<string, string> = { bitcoin: 'Bitcoin', ethereum: 'Ethereum' };

/** The signed transaction that paid a payout: by its hash, else its batch's newest signed one. */
function signedOf(p: PayoutRow, candidates: CandidateRow[]): CandidateRow | null {
  const signed = candidates.filter((c) => c.signed_hex !== null && c.tx_hash !== null);
  const mine =
    p.chain === 'ethereum'
      ? signed.filter((c) => (c.built as { payoutId?: string }).payoutId === p.transaction_id)
      : signed;
  return mine.find((c) => c.tx_hash === p.tx_hash) ?? mine.at(-1) ?? null;
}

/**
 * Re-sends a reversed payout's recorded signed transaction, the same bytes, with the
 * staff member's step-up. The node is asked inside the transaction, after every check and
 * the step-up: only if it takes the bytes do the payouts it pays become 'broadcast' again
 * (its transaction and batch live again, Bitcoin inputs reserved again), so the watcher
 * settles them once mined (the ledger row, already completed, is left alone). A refusal
 * is a 409 with the node's words, stored on the transaction; nothing else changes.
 * Refused before asking the node: a Bitcoin transaction that also pays a payout no longer
 * reversed with it (it would be paid twice), or whose inputs another batch now holds; an
 * Ethereum transaction whose nonce another live transaction holds.
 */
export async function resendReversed(
  ctx: PayoutsContext,
  actor: BatchActor,
  payoutId: string,
): Promise<{ txHash: string; payouts: string[] }> {
  if (!UUID.test(payoutId)) throw new AppError('NOT_FOUND', PAYOUT_MSG.payoutNotFound);
  const [head] = await payoutsRepo.payoutsOf(ctx.pool, [payoutId]);
  if (!head) throw new AppError('NOT_FOUND', PAYOUT_MSG.payoutNotFound);
  const chain = head.chain;
  const node = chain === 'bitcoin' || chain === 'ethereum' ? ctx.nodeOf(chain) : null;
  if (!node) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
  let refused: { id: string; reason: string } | null = null;
  try {
    return await withTransaction(ctx.pool, async (client) => {
      refused = null;
      // Builds read free inputs and nonces under this lock: none sees half of this.
      await batchesRepo.lockBuild(client, chain);
      const p = await payoutsRepo.lockPayout(client, payoutId);
      if (!p) throw new AppError('NOT_FOUND', PAYOUT_MSG.payoutNotFound);
      if (p.state !== 'reversed-on-chain')
        throw new AppError('CONFLICT', PAYOUT_MSG.notReversed(p.state));
      if (!p.batch_id) throw new AppError('CONFLICT', PAYOUT_MSG.noSignedBytes);
      const batch = await batchesRepo.lockBatch(client, p.batch_id);
      const candidates = await batchesRepo.lockCandidates(client, p.batch_id);
      const cand = signedOf(p, candidates);
      if (!batch || !cand?.signed_hex || !cand.tx_hash)
        throw new AppError('CONFLICT', PAYOUT_MSG.noSignedBytes);
      const built = cand.built as BuiltBitcoin;
      const paid = chain === 'bitcoin' ? built.payouts.map((x) => x.id) : [p.transaction_id];
      const ofBatch = await payoutsRepo.payoutsOfBatch(client, batch.id);
      const others = paid.filter(
        (id) => ofBatch.find((r) => r.transaction_id === id)?.state !== 'reversed-on-chain',
      );
      if (others.length > 0) throw new AppError('CONFLICT', PAYOUT_MSG.paysOthers(others));
      const inputs = (chain === 'bitcoin' ? (built.inputs ?? []) : []).map((i) => ({
        txid: i.txid,
        vout: i.vout,
        amount: BigInt(i.amount),
      }));
      if (chain === 'bitcoin') {
        const held = await outputsRepo.heldElsewhere(
          client,
          batch.id,
          inputs.map((i) => `${i.txid}:${i.vout}`),
        );
        if (held.length > 0) throw new AppError('CONFLICT', PAYOUT_MSG.inputsHeld(held));
      } else if (cand.nonce !== null) {
        const holder = await batchesRepo.liveNonceHolder(client, chain, cand.nonce, cand.id);
        if (holder) throw new AppError('CONFLICT', PAYOUT_MSG.nonceHeld(cand.nonce, holder));
      }
      const row = await payoutsRepo.lockWithdrawal(client, p.transaction_id);
      await actor.stepUp?.(client);
      try {
        await node.broadcast(cand.signed_hex);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        refused = { id: cand.id, reason };
        throw new AppError(
          'CONFLICT',
          PAYOUT_MSG.resendRefused(CHAIN_NAMES[chain] ?? chain, reason),
        );
      }
      await batchesRepo.revive(client, cand.id, batch.id);
      if (chain === 'bitcoin') await outputsRepo.reserveAgain(client, batch.id, inputs);
      await payoutsRepo.resentReversed(client, paid, cand.tx_hash);
      await batchesRepo.noteSendOutcome(client, cand.id, null);
      await ctx.audit.record(client, {
        actorId: actor.id,
        action: 'payouts.resend',
        targetType: 'payout',
        targetId: p.transaction_id,
        targetUserId: row?.user_id ?? null,
        before: { state: 'reversed-on-chain', batch: batch.id, batchState: batch.state },
        after: { state: 'broadcast', transaction: cand.tx_hash, payouts: paid },
        reason: null,
        ip: actor.ip,
      });
      return { txHash: cand.tx_hash, payouts: paid };
    });
  } catch (err) {
    // The node's words stay on the transaction for the Payouts screen, beside the refusal.
    const what = refused as { id: string; reason: string } | null;
    if (what) await batchesRepo.noteSendOutcome(ctx.pool, what.id, what.reason);
    throw err;
  }
}

export type ReturnPayload = { id: string; reason: string };

/**
 * Returning a reversed payout to approved: Coffer pays it again in a new batch. Two people
 * (decision 0036): one proposes it with a reason (`money.propose`, a route answering 202),
 * another approves it (`payouts.approve`), neither being the customer, the withdrawal's
 * creator or editor, or a recent funder of the customer, and the payout still reversed at
 * the approval. The ledger row stays completed (the customer was debited once, and the
 * chain no longer holds that payment), `completed_at` stays set, and the settlement of the
 * new payment leaves the ledger alone because `completed_at` is set: the customer is
 * debited once and paid once.
 */
export function returnPayoutKind(ctx: ApprovalContext): ChangeKind<ReturnPayload> {
  const check = async (
    client: Parameters<ChangeKind<ReturnPayload>['apply']>[0],
    id: string,
    staff: readonly string[],
  ) => {
    if (!UUID.test(id)) throw new AppError('NOT_FOUND', PAYOUT_MSG.payoutNotFound);
    const row = await payoutsRepo.lockWithdrawal(client, id);
    const p = row ? await payoutsRepo.lockPayout(client, id) : null;
    if (!row || !p) throw new AppError('NOT_FOUND', PAYOUT_MSG.payoutNotFound);
    for (const staffId of staff) await assertMayDecide(ctx, client, staffId, row);
    if (p.state !== 'reversed-on-chain')
      throw new AppError('CONFLICT', PAYOUT_MSG.notReversed(p.state));
    return { row, p };
  };
  return {
    kind: PAYOUT_RETURN,
    approvedWith: 'payouts.approve',
    auditAction: 'payouts.return',
    async describe(client, payload, proposer) {
      const reason = payload.reason.trim();
      const { row, p } = await check(client, payload.id, [proposer.userId]);
      const amount = `${decimalOf(p.asset_id, p.amount_minor)} ${p.asset_id}`;
      return {
        summary: `Pay again ${amount} to ${p.address}, reversed on chain (transaction ${p.tx_hash ?? 'unknown'}): ${reason}`,
        before: { state: p.state, txHash: p.tx_hash, batchId: p.batch_id },
        after: { state: 'approved', txHash: null, batchId: null },
        subjectUserId: row.user_id,
        targetKey: `payout-return:${payload.id}`,
        payload: { id: payload.id, reason },
      };
    },
    async apply(client, payload, { change, approver }) {
      const { p } = await check(client, payload.id, [change.proposed_by, approver.userId]);
      await payoutsRepo.returnReversed(
        client,
        p.transaction_id,
        PAYOUT_MSG.returnedReason(payload.reason),
      );
      return { payoutId: p.transaction_id, state: 'approved', reversedTransaction: p.tx_hash };
    },
  };
}
