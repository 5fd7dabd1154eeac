import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { AuditLog } from '../audit';
import type { BlockRef, ChainTransaction, PayoutNode, PayoutWatch } from '../chains';
import type { WithdrawalsService } from '../withdrawals';
import {
  payoutBatchesRepository as batchesRepo,
  type CandidateRow,
} from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';

/**
 * The chain watcher's side of payouts: a block's evidence settles payouts by their
 * output (the transaction, the output or log index, the address and the amount must all
 * match), a spend or a nonce Coffer did not build marks a conflict, and a payout returns
 * to approved only once that conflict has the chain's confirmations. Everything runs in
 * the block's own transaction, so a reorganisation undoes it with the block.
 */

export type PayoutHooks = {
  /** What to look for in blocks; null when nothing is live. Read after the block is. */
  watch(): Promise<PayoutWatch | null>;
  onBlock(
    client: TxClient,
    block: BlockRef,
    evidence: ChainTransaction[],
    required: number,
  ): Promise<void>;
  onRollBack(client: TxClient, toHeight: number): Promise<void>;
  /** After a tick: a signed transaction that left the mempool is sent again, same bytes. */
  afterTick(): Promise<void>;
};

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

export function createPayoutSettlement(deps: {
  pool: pg.Pool;
  chain: 'bitcoin' | 'ethereum' | 'tron';
  node: PayoutNode | null;
  /** Ethereum's payout address (lower-case): its other transactions may take a nonce. */
  sender: string | null;
  withdrawals: Pick<WithdrawalsService, 'settle'>;
  audit: AuditLog;
  log: Logger;
}): PayoutHooks {
  const { chain } = deps;

  async function returned(client: TxClient, ids: string[], reason: string, targetId: string) {
    if (ids.length === 0) return;
    await payoutsRepo.returnToApproved(client, ids, reason);
    await deps.audit.record(client, {
      actorId: null,
      action: 'payouts.returned',
      targetType: 'payout_batch',
      targetId,
      targetUserId: null,
      before: { payouts: ids },
      after: { state: 'approved' },
      reason,
      ip: null,
    });
  }

  /** A Bitcoin batch's transaction is in `block`: its payouts are checked output by output. */
  async function minedBitcoin(
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
        deps.log.error(
          { chain, payout: p.transaction_id, tx: tx.hash },
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
    if (
      built.change &&
      change &&
      batch?.change_index !== null &&
      batch?.change_index !== undefined
    ) {
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
  async function minedEthereum(
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
      deps.log.error(
        { chain, payout: p.transaction_id, tx: tx.hash },
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
  async function minedManual(
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

  async function settleDue(client: TxClient, height: number, required: number) {
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
      await deps.withdrawals.settle(client, p.transaction_id, {
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

  return {
    async watch() {
      const set = await batchesRepo.watchSet(deps.pool, chain);
      // An unsigned Ethereum transaction has no hash yet, but its nonce can still be taken
      // by another transaction of the payout address: the sender is watched for it too.
      const senderMatters = deps.sender !== null && set.unsent;
      if (set.hashes.length === 0 && set.outpoints.length === 0 && !senderMatters) return null;
      return {
        hashes: new Set(set.hashes),
        outpoints: new Set(set.outpoints),
        sender: deps.sender,
      };
    },

    async onBlock(client, block, evidence, required) {
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
            if (chain === 'bitcoin') await minedBitcoin(client, cand, tx, block, live);
            else await minedEthereum(client, cand, tx, block);
            continue;
          }
          const typed = manual.find((p) => p.tx_hash === tx.hash);
          if (typed) {
            await minedManual(client, typed, tx, block);
            continue;
          }
          // Not Coffer's: a conflict if it uses what a live transaction needs.
          if (chain === 'bitcoin') {
            const reserved = new Set(
              live.filter((c) => c.state !== 'mined').map((c) => c.batch_id),
            );
            for (const batchId of await outputsRepo.batchesSpending(client, tx.spends)) {
              if (reserved.has(batchId))
                await batchesRepo.setBatchConflict(client, batchId, tx.hash, block.height);
            }
          } else if (tx.from !== null && tx.from === deps.sender) {
            for (const c of live) {
              if (c.nonce === tx.nonce && c.state !== 'mined')
                await batchesRepo.setCandidateConflict(client, c.id, tx.hash, block.height);
            }
          }
        }
      }
      await settleDue(client, block.height, required);
    },

    async onRollBack(client, toHeight) {
      await payoutsRepo.unconfirmAbove(client, chain, toHeight);
      await batchesRepo.unconfirmAbove(client, chain, toHeight);
      await outputsRepo.forgetChangeAbove(client, chain, toHeight);
    },

    async afterTick() {
      const node = deps.node;
      if (!node) return;
      for (const c of await batchesRepo.unmined(deps.pool, chain)) {
        if (!c.tx_hash || !c.signed_hex) continue;
        try {
          if (await node.inMempool(c.tx_hash)) continue;
          const outcome = await node.broadcast(c.signed_hex);
          if (outcome === 'sent') {
            await batchesRepo.noteSent(deps.pool, c.id);
            deps.log.info({ chain, tx: c.tx_hash }, 'payout transaction re-sent (same bytes)');
          }
        } catch (err) {
          deps.log.warn(
            { chain, tx: c.tx_hash, err: err instanceof Error ? err.message : String(err) },
            'payout transaction could not be re-sent',
          );
        }
      }
    },
  };
}
