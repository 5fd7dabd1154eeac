import type { TxClient } from '@server/db/tx';
import type { BlockRef, ChainTransaction, PayoutWatch } from '../chains';
import {
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { payoutsRepository as payoutsRepo } from './payouts.repository';
import { isolated, type SettlementContext, type SettlementProblems } from './settlement-context';
import { settleDue } from './settlement-due';
import { minedBitcoin, minedEthereum, minedManual } from './settlement-mined';

/**
 * The chain watcher's blocks, as payouts see them: what to look for, a block's evidence
 * (Coffer's transactions, hashes staff typed, and conflicts with what a live transaction
 * needs), and a reorganisation that takes blocks away. Everything runs in the block's own
 * transaction, so a reorganisation undoes it with the block.
 */

/** What to look for in blocks; null when nothing is live. */
export async function watched(ctx: SettlementContext): Promise<PayoutWatch | null> {
  const set = await batchesRepo.watchSet(ctx.pool, ctx.chain);
  // An unsigned Ethereum transaction has no hash yet, but its nonce can still be taken
  // by another transaction of the payout address: the sender is watched for it too.
  const senderMatters = ctx.sender !== null && set.unsent;
  if (set.hashes.length === 0 && set.outpoints.length === 0 && !senderMatters) return null;
  return {
    hashes: new Set(set.hashes),
    outpoints: new Set(set.outpoints),
    sender: ctx.sender,
  };
}

/** A transaction Coffer did not build: a conflict if it uses what a live transaction needs. */
async function markConflicts(
  ctx: SettlementContext,
  client: TxClient,
  tx: ChainTransaction,
  block: BlockRef,
  live: CandidateRow[],
) {
  if (ctx.chain === 'bitcoin') {
    const reserved = new Set(live.filter((c) => c.state !== 'mined').map((c) => c.batch_id));
    for (const batchId of await outputsRepo.batchesSpending(client, tx.spends)) {
      if (reserved.has(batchId))
        await batchesRepo.setBatchConflict(client, batchId, tx.hash, block.height);
    }
  } else if (tx.from !== null && tx.from === ctx.sender) {
    for (const c of live) {
      if (c.nonce === tx.nonce && c.state !== 'mined')
        await batchesRepo.setCandidateConflict(client, c.id, tx.hash, block.height);
    }
  }
}

/**
 * A block's evidence settles or conflicts payouts; then what its height makes due. Each
 * transaction's settlement runs alone (`isolated`): one that fails is undone and reported
 * in what this returns, and the block's other payouts and deposits go on.
 */
export async function settleBlock(
  ctx: SettlementContext,
  client: TxClient,
  block: BlockRef,
  evidence: ChainTransaction[],
  required: number,
): Promise<SettlementProblems> {
  const { chain } = ctx;
  const problems: SettlementProblems = [];
  if (evidence.length > 0) {
    const live = await batchesRepo.lockLiveCandidates(client, chain);
    const byHash = new Map(live.flatMap((c) => (c.tx_hash ? [[c.tx_hash, c] as const] : [])));
    const manual = await payoutsRepo.manualByHash(
      client,
      chain,
      evidence.map((t) => t.hash),
    );
    for (const tx of evidence) {
      const cand = byHash.get(tx.hash);
      if (cand && cand.state !== 'unsigned') {
        if (cand.state === 'mined' && cand.block_hash === block.hash) continue;
        await isolated(ctx, client, problems, `transaction ${tx.hash}`, () =>
          chain === 'bitcoin'
            ? minedBitcoin(ctx, client, cand, tx, block, live)
            : minedEthereum(ctx, client, cand, tx, block),
        );
        continue;
      }
      const typed = manual.filter((p) => p.tx_hash === tx.hash);
      if (typed.length > 0) {
        await isolated(ctx, client, problems, `typed transaction ${tx.hash}`, () =>
          minedManual(ctx, client, typed, tx, block),
        );
        continue;
      }
      await isolated(ctx, client, problems, `a conflict in ${tx.hash}`, () =>
        markConflicts(ctx, client, tx, block, live),
      );
    }
  }
  await settleDue(ctx, client, block.height, required, problems);
  return problems;
}

/** A reorganisation took the blocks above `toHeight` away: what they settled waits again. */
export async function rollBack(ctx: SettlementContext, client: TxClient, toHeight: number) {
  await payoutsRepo.unconfirmAbove(client, ctx.chain, toHeight);
  await batchesRepo.unconfirmAbove(client, ctx.chain, toHeight);
  await outputsRepo.forgetChangeAbove(client, ctx.chain, toHeight);
}
