import type { TPayoutBatch } from '@coffer/shared';
import { bytesToHex } from '@noble/hashes/utils.js';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { bitcoinP2wpkh, publicKeyAtChain } from '../chains';
import { buildBitcoinBatch, bumpBitcoinBatch } from './bitcoin-psbt-build';
import { type BatchRow, payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import { payoutOutputsRepository as outputsRepo } from './payout-outputs.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';
import { type BatchActor, PAYOUT_MSG, type PayoutsContext, setting, UUID } from './payouts-context';
import { batchView, decimalOf, fileOf } from './payouts-view';

/**
 * A Bitcoin batch: what a build asks the node (the fee rate, which outputs are still
 * unspent) and what it writes (the batch, its PSBT, the inputs it reserves).
 */
export async function buildBitcoin(
  ctx: PayoutsContext,
  client: TxClient,
  actorId: string | null,
  approved: PayoutRow[],
): Promise<BatchRow> {
  const node = ctx.bitcoin;
  const bitcoinConfig = ctx.chains.bitcoin;
  if (!node || !bitcoinConfig) throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
  const settings = await ctx.settings(client);
  const cap = setting(settings, 'max_fee_rate_btc');
  const feeRate = await ctx.fromNode('bitcoin', () =>
    node.feeRate(setting(settings, 'fee_target_blocks_btc')),
  );
  if (feeRate > cap) {
    throw new AppError(
      'CONFLICT',
      `The node’s fee rate is ${feeRate} sat/vB, above the cap of ${cap} sat/vB: no batch was built.`,
    );
  }
  // Only outputs still unspent on the chain (the operator may have moved some).
  const spendable = [];
  for (const o of await outputsRepo.spendable(client)) {
    if (!(await ctx.fromNode('bitcoin', () => node.isUnspent(o.tx_hash, o.output_index)))) continue;
    const key = publicKeyAtChain(bitcoinConfig.account, o.change, o.derivation_index);
    spendable.push({
      txid: o.tx_hash,
      vout: o.output_index,
      amount: o.amount_minor,
      script: bitcoinP2wpkh(key, bitcoinConfig.network).script,
      change: o.change,
      index: o.derivation_index,
      publicKey: bytesToHex(key),
    });
  }
  const changeIndex = await outputsRepo.nextChangeIndex(client);
  const changeKey = publicKeyAtChain(bitcoinConfig.account, 1, changeIndex);
  const built = buildBitcoinBatch({
    spendable,
    payouts: approved.map((p) => ({
      id: p.transaction_id,
      script: p.match_key,
      amount: p.amount_minor,
    })),
    feeRate,
    change: {
      index: changeIndex,
      script: bitcoinP2wpkh(changeKey, bitcoinConfig.network).script,
      publicKey: bytesToHex(changeKey),
    },
    accountFingerprint: bitcoinConfig.account.fingerprint,
    keyOrigin: ctx.keyOrigin,
  });
  if (!built) {
    const total = spendable.reduce((s, o) => s + o.amount, 0n);
    throw new AppError(
      'CONFLICT',
      `The spendable outputs (${decimalOf('BTC', total)} BTC in ${spendable.length}) do not cover the oldest approved payout and its fee: fund the wallet or wait for deposits.`,
    );
  }
  const batch = await batchesRepo.insertBatch(client, {
    chain: 'bitcoin',
    createdBy: actorId,
    changeIndex,
  });
  await batchesRepo.insertCandidate(client, {
    batchId: batch.id,
    chain: 'bitcoin',
    txHash: built.txid,
    unsigned: built.psbt,
    built: { ...built, psbt: undefined },
    nonce: null,
    feeMinor: built.fee,
    feeRate: built.feeRate,
    replaces: null,
  });
  await outputsRepo.reserveInputs(client, batch.id, built.inputs);
  await payoutsRepo.putInBatch(
    client,
    batch.id,
    built.payouts.map((p) => p.id),
  );
  await payoutsRepo.setWaitingReasons(
    client,
    built.skipped.map((s) => ({
      id: s.id,
      reason: 'The spendable outputs did not cover it with the others: it waits for funds.',
    })),
  );
  return batch;
}

/**
 * A Bitcoin fee bump: a replacement of the batch's transaction with the same inputs and
 * payments and a higher fee, taken from the change. Both stay candidates until one confirms.
 */
export async function bumpBitcoin(
  ctx: PayoutsContext,
  actor: BatchActor,
  batchId: string,
  feeRate: number,
): Promise<{ batch: TPayoutBatch; file: string }> {
  if (!UUID.test(batchId)) throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
  const batch = await withTransaction(ctx.pool, async (client) => {
    const b = await batchesRepo.lockBatch(client, batchId);
    if (b?.chain !== 'bitcoin') throw new AppError('NOT_FOUND', PAYOUT_MSG.batchNotFound);
    if (b.state !== 'broadcast') {
      throw new AppError(
        'CONFLICT',
        'Only a broadcast batch that has not confirmed can be bumped.',
      );
    }
    const cap = setting(await ctx.settings(client), 'max_fee_rate_btc');
    if (feeRate > cap) {
      throw new AppError('VALIDATION_FAILED', `The fee rate is above the cap of ${cap} sat/vB.`);
    }
    await actor.stepUp?.(client);
    const candidates = await batchesRepo.lockCandidates(client, b.id);
    const latest = candidates.filter((c) => c.state === 'broadcast').at(-1);
    if (!latest) throw new AppError('CONFLICT', 'This batch has no broadcast transaction to bump.');
    if (candidates.some((c) => c.state === 'unsigned')) {
      throw new AppError('CONFLICT', 'A fee bump of this batch is already waiting to be signed.');
    }
    const built = latest.built as {
      change: { outputIndex: number } | null;
      payouts: unknown[];
    };
    let bumped: ReturnType<typeof bumpBitcoinBatch>;
    try {
      bumped = bumpBitcoinBatch(
        { psbt: latest.unsigned },
        feeRate,
        built.change?.outputIndex ?? null,
      );
    } catch (err) {
      throw new AppError('VALIDATION_FAILED', err instanceof Error ? err.message : String(err));
    }
    await batchesRepo.insertCandidate(client, {
      batchId: b.id,
      chain: 'bitcoin',
      txHash: bumped.txid,
      unsigned: bumped.psbt,
      built: {
        ...(latest.built as object),
        fee: bumped.fee,
        vsize: bumped.vsize,
        feeRate,
        txid: bumped.txid,
        change: built.change ? { ...built.change, amount: bumped.changeAmount } : null,
      },
      nonce: null,
      feeMinor: bumped.fee,
      feeRate,
      replaces: latest.id,
    });
    await ctx.audit.record(client, {
      actorId: actor.id,
      action: 'payouts.bump',
      targetType: 'payout_batch',
      targetId: b.id,
      targetUserId: null,
      before: { feeRate: latest.fee_rate, tx: latest.tx_hash },
      after: { feeRate, tx: bumped.txid },
      reason: null,
      ip: actor.ip,
    });
    return b;
  });
  const candidates = await batchesRepo.candidatesOf(ctx.pool, [batch.id]);
  return { batch: await batchView(ctx, ctx.pool, batch), file: fileOf(batch, candidates) };
}
