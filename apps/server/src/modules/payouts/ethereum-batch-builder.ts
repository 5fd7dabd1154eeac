import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { buildEthereumEntry, estimatePayoutGas, readEthereumFees } from './ethereum-payout-build';
import type { EthPayoutEntry } from './ethereum-payout-tx';
import { type BatchRow, payoutBatchesRepository as batchesRepo } from './payout-batches.repository';
import { type PayoutRow, payoutsRepository as payoutsRepo } from './payouts.repository';
import { PAYOUT_MSG, type PayoutsContext, setting } from './payouts-context';

/**
 * An Ethereum batch: what a build asks the node (fees, chain id, the payout address's
 * nonce and balances, each payout's gas) and what it writes (the batch and one unsigned
 * entry per payout it can fund, nonces in order).
 */
export async function buildEthereum(
  ctx: PayoutsContext,
  client: TxClient,
  actorId: string | null,
  approved: PayoutRow[],
): Promise<BatchRow> {
  const node = ctx.ethereum;
  const { payoutAddress } = ctx;
  if (!node || !ctx.chains.ethereum || !payoutAddress)
    throw new AppError('CONFLICT', PAYOUT_MSG.notConfigured);
  const settings = await ctx.settings(client);
  const cap = setting(settings, 'max_fee_per_gas_eth');
  let fees: Awaited<ReturnType<typeof readEthereumFees>>;
  try {
    fees = await readEthereumFees(node.publicClient, cap);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Above the cap is the operator's to decide; anything else is the node not answering.
    if (!/above the cap/.test(message)) return ctx.fromNode('ethereum', () => Promise.reject(err));
    throw new AppError('CONFLICT', `${message}: no payouts were built.`);
  }
  const [chainId, confirmed, live, balances] = await Promise.all([
    ctx.fromNode('ethereum', () => node.chainId()),
    ctx.fromNode('ethereum', () => node.nonceOf(payoutAddress, 'latest')),
    batchesRepo.liveNonces(client, 'ethereum'),
    ctx.fromNode('ethereum', () => node.balancesOf(payoutAddress)),
  ]);
  // A build never skips a nonce: each entry takes the smallest nonce at or above the
  // chain's confirmed one that no live transaction holds. One left free (a payout returned,
  // a batch abandoned, a reorganisation) is taken again, or everything above it would
  // wait in the node's queue for ever.
  const held = new Set(live.map((c) => c.nonce));
  let next = confirmed;
  const nextNonce = () => {
    while (held.has(next)) next++;
    held.add(next);
    return next;
  };
  let eth = balances.eth;
  let usdt = balances.usdt;
  const entries: Array<{ payout: PayoutRow; entry: EthPayoutEntry; fee: bigint }> = [];
  const skipped: Array<{ id: string; reason: string }> = [];
  for (const p of approved) {
    const amount = p.amount_minor;
    const assetId = p.asset_id as 'ETH' | 'USDT-ERC20';
    if (assetId === 'USDT-ERC20' && amount > usdt) {
      skipped.push({
        id: p.transaction_id,
        reason: 'The payout address holds too little USDT: fund it.',
      });
      continue;
    }
    let gas: bigint;
    try {
      gas = await estimatePayoutGas(node.publicClient, {
        from: payoutAddress,
        assetId,
        recipient: p.address,
        amount,
        usdtContract: node.tokenContract,
      });
    } catch {
      skipped.push({
        id: p.transaction_id,
        reason: 'The node could not estimate its gas (funds?).',
      });
      continue;
    }
    const maxFee = gas * fees.maxFeePerGas;
    const ethNeeded = maxFee + (assetId === 'ETH' ? amount : 0n);
    if (ethNeeded > eth) {
      skipped.push({
        id: p.transaction_id,
        reason: 'The payout address holds too little ETH for it and its gas: fund it.',
      });
      continue;
    }
    eth -= ethNeeded;
    if (assetId === 'USDT-ERC20') usdt -= amount;
    entries.push({
      payout: p,
      fee: maxFee,
      entry: buildEthereumEntry({
        payoutId: p.transaction_id,
        assetId,
        recipient: p.address,
        amount,
        usdtContract: node.tokenContract,
        from: payoutAddress,
        nonce: nextNonce(),
        gas,
        fees,
        chainId,
      }),
    });
  }
  if (entries.length === 0) {
    throw new AppError(
      'CONFLICT',
      `No approved payout could be built: ${skipped[0]?.reason ?? 'nothing fits'}`,
    );
  }
  const batch = await batchesRepo.insertBatch(client, {
    chain: 'ethereum',
    createdBy: actorId,
    changeIndex: null,
  });
  // One statement for all of them: a round-trip per payout was most of a large build's time.
  await batchesRepo.insertCandidates(
    client,
    batch.id,
    'ethereum',
    entries.map((e) => ({
      unsigned: JSON.stringify(e.entry),
      built: { payoutId: e.payout.transaction_id },
      nonce: e.entry.nonce,
      feeMinor: e.fee,
      feeRate: null,
    })),
  );
  await payoutsRepo.putInBatch(
    client,
    batch.id,
    entries.map((e) => e.payout.transaction_id),
  );
  await payoutsRepo.setWaitingReasons(client, skipped);
  return batch;
}
