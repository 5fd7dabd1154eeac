import type { TxClient } from '@server/db/tx';
import type { BlockRef, ChainTransaction } from '../chains';
import {
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';
import { returned, type SettlementContext } from './settlement-context';

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
  await payoutsRepo.setPayoutState(client, p.transaction_id, {
    state: 'confirming',
    txHash: tx.hash,
    outputIndex: paid.outputIndex,
    block: { height: block.height, hash: block.hash },
    networkFeeMinor: tx.feeMinor,
  });
}

/** A hash staff typed is in `block`: it must pay the payout exactly. */
export async function minedManual(
  ctx: SettlementContext,
  client: TxClient,
  p: PayoutRow,
  tx: ChainTransaction,
  block: BlockRef,
) {
  const paid = tx.success
    ? tx.payments.find((x) => x.matchKey === p.match_key && x.amountMinor === p.amount_minor)
    : undefined;
  if (!paid) {
    await returned(
      ctx,
      client,
      [p.transaction_id],
      `The transaction staff gave (${tx.hash}) does not pay this payout's address its amount; the payout is approved again and stays held.`,
      p.transaction_id,
    );
    return;
  }
  await payoutsRepo.setPayoutState(client, p.transaction_id, {
    state: 'confirming',
    outputIndex: paid.outputIndex,
    block: { height: block.height, hash: block.hash },
    networkFeeMinor: tx.feeMinor,
  });
}
