import { ASSETS, mulPrice, normalizeTxHash } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type { PendingDepositInput } from '../ledger';
import type { BlockRef, SeenTransfer } from './chain-adapter';
import { chainDepositsRepository as deposits } from './chain-deposits.repository';
import { chainLedgerRepository as ledgerRows } from './chain-ledger.repository';
import type { Owner, Payment, WatcherContext } from './watcher-context';

/**
 * Records a block's payments to watched addresses. The usual case, a transaction seen for
 * the first time and never credited by hand, is written for the whole block in a few
 * statements; anything else (a deposit seen before, in another block; a hash staff
 * credited; a later output of a transaction already recorded) goes through `recordKnown`.
 */
export async function recordAll(
  ctx: WatcherContext,
  client: TxClient,
  block: BlockRef,
  payments: Array<{ t: SeenTransfer; owner: Owner }>,
): Promise<void> {
  if (payments.length === 0) return;
  const items = payments.map(({ t, owner }): Payment => {
    const hash = normalizeTxHash(t.assetId, t.txHash);
    if (!hash.ok) throw new Error(`the node gave a malformed transaction hash ${t.txHash}`);
    return { t, owner, txHash: hash.value, assetId: t.assetId };
  });
  // The locks a manual credit of these hashes takes (deposits module), in one order.
  const lockKeys = [
    ...new Set(items.map((i) => `deposit:${i.assetId}:${i.txHash.toLowerCase()}`)),
  ].sort();
  await ledgerRows.lockKeys(client, lockKeys);
  const seen = new Set(
    (
      await deposits.lockDepositsOf(
        client,
        ctx.chain,
        items.map((i) => ({ txHash: i.txHash, outputIndex: i.t.outputIndex })),
      )
    ).map((d) => `${d.tx_hash}/${d.output_index}`),
  );
  const inLedger = await ledgerRows.ledgerDepositHashes(
    client,
    items.map((i) => ({ assetId: i.assetId, hash: i.txHash })),
  );
  const fresh = items.filter(
    (i) => !seen.has(`${i.txHash}/${i.t.outputIndex}`) && !inLedger.has(`${i.assetId}/${i.txHash}`),
  );
  for (const i of items) if (!fresh.includes(i)) await recordKnown(ctx, client, block, i);
  if (fresh.length === 0) return;
  // The ledger keeps one deposit per chain hash and asset: a transaction's first output
  // carries the hash, its later outputs carry it in the memo (as `recordKnown` does).
  fresh.sort((a, b) => a.t.outputIndex - b.t.outputIndex);
  const first = new Set<string>();
  const rows = await ctx.deps.ledger.postPendingDeposits(
    client,
    fresh.map((i) => {
      const carriesHash = !first.has(`${i.assetId}/${i.txHash}`);
      first.add(`${i.assetId}/${i.txHash}`);
      return pendingDeposit(ctx, i, carriesHash);
    }),
  );
  await deposits.insertConfirming(
    client,
    ctx.chain,
    block,
    fresh.map((i, k) => ({
      txHash: i.txHash,
      outputIndex: i.t.outputIndex,
      address: i.owner.address,
      userId: i.owner.userId,
      assetId: i.assetId,
      amountMinor: i.t.amountMinor,
      transactionId: (rows[k] as { id: string }).id,
    })),
  );
}

/**
 * A payment `recordAll` cannot simply add: one already recorded (seen again in another
 * block, after a reorganisation), or one whose chain hash the ledger already has (staff
 * credited it by hand, or it is a later output of a transaction recorded before). Runs
 * under recordAll's locks of the hashes, which manual credits take too.
 */
async function recordKnown(ctx: WatcherContext, client: TxClient, block: BlockRef, p: Payment) {
  const { chain, deps } = ctx;
  const { t, owner, txHash, assetId } = p;
  const existing = await deposits.lockDeposit(client, chain, txHash, t.outputIndex);
  if (existing) {
    if (existing.block_hash === block.hash && existing.status !== 'orphaned') return;
    // The same payment in another block (after a reorganisation): it moves there.
    if (existing.status === 'reversed-on-chain' || existing.status === 'credited') {
      await deposits.moveDeposit(client, existing.id, {
        blockHeight: block.height,
        blockHash: block.hash,
        status: 'credited',
      });
      if (existing.status === 'reversed-on-chain') {
        await deps.audit.record(client, {
          actorId: null,
          action: 'chain.deposit.returned',
          targetType: 'chain_deposit',
          targetId: existing.id,
          targetUserId: existing.user_id,
          before: { status: existing.status },
          after: { status: 'credited', blockHeight: block.height, blockHash: block.hash },
          reason: `The credited deposit ${txHash} is back on the ${chain} chain, in block ${block.height}.`,
        });
      }
      return;
    }
    await deposits.moveDeposit(client, existing.id, {
      blockHeight: block.height,
      blockHash: block.hash,
      status: 'confirming',
    });
    if (existing.status === 'orphaned' && existing.transaction_id) {
      await deps.ledger.changeStatus(client, existing.transaction_id, 'pending', {
        processedBy: null,
      });
    }
    return;
  }
  const inLedger = await ledgerRows.ledgerDepositWithHash(client, assetId, txHash);
  if (!inLedger) throw new Error(`the ledger row of ${txHash} vanished under its lock`);
  const earlierOutput = (await deposits.depositsOfTx(client, chain, txHash)).some(
    (d) => d.asset_id === assetId,
  );
  /** The deposit as first seen, with the ledger row that stands for it. */
  const insert = (status: 'credited' | 'confirming', transactionId: string) =>
    deposits.insertDeposit(client, {
      chain,
      txHash,
      outputIndex: t.outputIndex,
      address: owner.address,
      userId: owner.userId,
      assetId,
      amountMinor: t.amountMinor,
      blockHeight: block.height,
      blockHash: block.hash,
      confirmations: 0,
      status,
      transactionId,
    });
  if (!earlierOutput) {
    // Staff credited this transaction by hand before the watcher saw it: it is recorded
    // as credited by that row and never credited again.
    await insert('credited', inLedger.id);
    return;
  }
  // A later output of a recorded transaction: the ledger keeps one deposit per chain hash
  // and asset, so this one carries the hash in its memo.
  const [row] = await deps.ledger.postPendingDeposits(client, [pendingDeposit(ctx, p, false)]);
  if (!row) throw new Error(`the deposit of ${txHash} was not written`);
  await insert('confirming', row.id);
}

/** The pending ledger row of a payment; `carriesHash` false puts the hash in the memo. */
function pendingDeposit(
  ctx: WatcherContext,
  p: Payment,
  carriesHash: boolean,
): PendingDepositInput {
  const asset = ASSETS[p.assetId];
  return {
    userId: p.owner.userId,
    assetId: asset.id,
    amount: p.t.amountMinor,
    usdAmount: mulPrice(
      p.t.amountMinor,
      asset.decimals,
      ctx.deps.prices.current().quotes[asset.id].priceUsd,
    ),
    transactionHash: carriesHash ? p.txHash : null,
    memo: carriesHash ? null : `${p.txHash}:${p.t.outputIndex}`,
  };
}
