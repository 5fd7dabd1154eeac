import type { TxClient } from '@server/db/tx';
import type { BlockRef, ChainTransaction } from '../chains';
import {
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';
import { returned, reversed, type SettlementContext } from './settlement-context';

/**
 * A payout's transaction found in a block: it settles payouts by their output (the
 * transaction, the output or log index, the address and the amount must all match), each
 * then confirming until its block has the chain's confirmations.
 */

type BuiltBitcoin = {
  payouts: Array<{ id: string; outputIndex: number; script: string; amount: string }>;
  change: { outputIndex: number; index: number } | null;
  vsize: number;
};

/** A P2WPKH output's size in vbytes, and other scripts' by their length. */
function outputVbytes(script: string): number {
  return 8 + 1 + script.length / 2;
}

/**
 * Each payout's share of a Bitcoin batch's fee, by the size of its output (the rest of the
 * transaction is shared alike); the remainder of the division goes to the first.
 */
export function feeShares(fee: bigint, scripts: string[]): bigint[] {
  const sizes = scripts.map((s) => BigInt(Math.round(outputVbytes(s) * 1000)));
  const total = sizes.reduce((a, b) => a + b, 0n);
  if (total === 0n) return scripts.map(() => 0n);
  const shares = sizes.map((s) => (fee * s) / total);
  const rest = fee - shares.reduce((a, b) => a + b, 0n);
  if (shares.length > 0) shares[0] = (shares[0] ?? 0n) + rest;
  return shares;
}

/** A Bitcoin batch's transaction is in `block`: its payouts are checked output by output. */
export async function minedBitcoin(
  ctx: SettlementContext,
  client: TxClient,
  cand: CandidateRow,
  tx: ChainTransaction,
  block: BlockRef,
  live: CandidateRow[],
) {
  await batchesRepo.setCandidateState(client, cand.id, 'mined', block);
  for (const other of live) {
    if (other.batch_id === cand.batch_id && other.id !== cand.id && other.state !== 'mined') {
      await batchesRepo.setCandidateState(client, other.id, 'replaced');
    }
  }
  await batchesRepo.setBatchState(client, cand.batch_id, 'confirming');
  const built = cand.built as BuiltBitcoin;
  const payouts = await payoutsRepo.payoutsOfBatch(client, cand.batch_id);
  const shares = feeShares(
    cand.fee_minor ?? 0n,
    built.payouts.map((p) => p.script),
  );
  for (const [k, b] of built.payouts.entries()) {
    const p = payouts.find((x) => x.transaction_id === b.id);
    const out = tx.payments[b.outputIndex];
    if (!p) continue;
    if (!out || out.matchKey !== p.match_key || out.amountMinor !== p.amount_minor) {
      ctx.log.error(
        { chain: ctx.chain, payout: p.transaction_id, tx: tx.hash },
        'a mined payout transaction does not pay the payout: left for staff',
      );
      continue;
    }
    if (await claimedByAnother(ctx, client, p, tx.hash, b.outputIndex)) continue;
    await payoutsRepo.setPayoutState(client, p.transaction_id, {
      state: 'confirming',
      txHash: tx.hash,
      outputIndex: b.outputIndex,
      block: { height: block.height, hash: block.hash },
      networkFeeMinor: shares[k] ?? 0n,
    });
  }
  const batch = await batchesRepo.lockBatch(client, cand.batch_id);
  const change = built.change ? tx.payments[built.change.outputIndex] : undefined;
  if (built.change && change && batch?.change_index !== null && batch?.change_index !== undefined) {
    await outputsRepo.insertChange(client, {
      txHash: tx.hash,
      outputIndex: built.change.outputIndex,
      derivationIndex: batch.change_index,
      amountMinor: change.amountMinor,
      script: change.matchKey,
      blockHeight: block.height,
    });
  }
}

/** An Ethereum payout's transaction is in `block`. */
export async function minedEthereum(
  ctx: SettlementContext,
  client: TxClient,
  cand: CandidateRow,
  tx: ChainTransaction,
  block: BlockRef,
) {
  const payoutId = (cand.built as { payoutId: string }).payoutId;
  const [p] = await payoutsRepo.payoutsOf(client, [payoutId]);
  if (!tx.success) {
    // Reverted: its nonce is used and it paid nothing. Once that is confirmed, the
    // payout goes back for a new transaction.
    await batchesRepo.setCandidateConflict(client, cand.id, tx.hash, block.height);
    return;
  }
  await batchesRepo.setCandidateState(client, cand.id, 'mined', block);
  await batchesRepo.setBatchState(client, cand.batch_id, 'confirming');
  if (!p) return;
  const paid = tx.payments.find(
    (x) =>
      x.assetId === p.asset_id && x.matchKey === p.match_key && x.amountMinor === p.amount_minor,
  );
  if (!paid) {
    ctx.log.error(
      { chain: ctx.chain, payout: p.transaction_id, tx: tx.hash },
      'a mined payout transaction does not pay the payout: left for staff',
    );
    return;
  }
  if (await claimedByAnother(ctx, client, p, tx.hash, paid.outputIndex)) return;
  await payoutsRepo.setPayoutState(client, p.transaction_id, {
    state: 'confirming',
    txHash: tx.hash,
    outputIndex: paid.outputIndex,
    block: { height: block.height, hash: block.hash },
    networkFeeMinor: tx.feeMinor,
  });
}

/**
 * An output another payout already holds (one output settles one payout; the unique claim
 * index would refuse the write): this payout is left for staff, logged, never settled by it.
 */
async function claimedByAnother(
  ctx: SettlementContext,
  client: TxClient,
  p: PayoutRow,
  hash: string,
  outputIndex: number,
): Promise<boolean> {
  const holder = (await payoutsRepo.claimedOutputs(client, ctx.chain, hash)).get(outputIndex);
  if (holder === undefined || holder === p.transaction_id) return false;
  ctx.log.error(
    { chain: ctx.chain, payout: p.transaction_id, tx: hash, outputIndex, holder },
    'a mined payout output is already claimed by another payout: left for staff',
  );
  return true;
}

/**
 * Hashes staff typed are in `block`, each for one or more payouts: each payout must be paid
 * exactly (its address, its amount, its asset) by an output of its own. Several payouts
 * typed with one hash each claim a distinct matching output no other payout holds (one
 * already holding a matching output keeps it); one left without is approved again, saying
 * which payout holds the output it would have taken.
 */
export async function minedManual(
  ctx: SettlementContext,
  client: TxClient,
  typed: PayoutRow[],
  tx: ChainTransaction,
  block: BlockRef,
) {
  const claims = await payoutsRepo.claimedOutputs(client, ctx.chain, tx.hash);
  for (const p of typed) {
    const matching = tx.success
      ? tx.payments.filter(
          (x) =>
            x.matchKey === p.match_key &&
            x.amountMinor === p.amount_minor &&
            (ctx.chain === 'bitcoin' || x.assetId === p.asset_id),
        )
      : [];
    const free = (i: number) => {
      const holder = claims.get(i);
      return holder === undefined || holder === p.transaction_id;
    };
    const paid =
      matching.find((x) => x.outputIndex === p.output_index && free(x.outputIndex)) ??
      matching.find((x) => free(x.outputIndex));
    if (!paid) {
      const holder = matching.map((x) => claims.get(x.outputIndex)).find((h) => h !== undefined);
      const reason = holder
        ? `The transaction staff gave (${tx.hash}) pays this payout's address its amount, but that output is already claimed by payout ${holder}: one output settles one payout, so the payout is approved again and stays held.`
        : `The transaction staff gave (${tx.hash}) does not pay this payout's address its amount; the payout is approved again and stays held.`;
      if (p.completed_at !== null) await reversed(ctx, client, [p], reason);
      else await returned(ctx, client, [p.transaction_id], reason, p.transaction_id);
      continue;
    }
    if (p.output_index !== null && claims.get(p.output_index) === p.transaction_id)
      claims.delete(p.output_index);
    claims.set(paid.outputIndex, p.transaction_id);
    await payoutsRepo.setPayoutState(client, p.transaction_id, {
      state: 'confirming',
      outputIndex: paid.outputIndex,
      block: { height: block.height, hash: block.hash },
      networkFeeMinor: tx.feeMinor,
    });
  }
}
