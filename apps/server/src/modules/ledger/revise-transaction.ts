import { ASSETS, fromMinor, type TAnyAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { effectDelta, type LedgerRowState, type TDirection, type TStatus } from './ledger.effects';
import {
  type RowRevision,
  ledgerRepository as repo,
  type TransactionRow,
  type WalletRow,
} from './ledger.repository';
import { applyDelta, changed, type LedgerContext } from './ledger-context';
import {
  assertFiatFits,
  assertFits,
  assertNotFinal,
  assetOf,
  chainHash,
  oneCreditPerChainTransaction,
  PAYOUT_TYPES,
  stateOf,
} from './ledger-rules';

/** Staff's edits and deletions of a row: its old effect reversed, its new one applied. */

/**
 * What an admin edit leaves a row as (product.md M7). `assetId` is a catalogue asset for
 * a row that moves crypto, or the fiat currency ('AUD', 'USD') for direction none.
 */
export type Revision = {
  type: string;
  direction: TDirection;
  assetId: string;
  /** Minor units of the asset; 0 for direction none. */
  amount: bigint;
  usdAmount: string | null;
  audAmount: string | null;
  currency: string | null;
  status: TStatus;
  transactionDate: Date;
  withdrawalAddress: string | null;
  transactionHash: string | null;
  updatedBy: string | null;
};

/** A row before and after a change: what the audit log records. */
export type RowChange = { before: TransactionRow; after: TransactionRow };

/**
 * An admin edit: the row's old effect is reversed and its new one applied, on the same
 * wallet or, when the asset changed, on each, with every wallet involved locked (in
 * asset order, so two edits cannot each hold what the other waits for). Refused, with
 * nothing changed, if any wallet would be left with less than nothing available.
 */
export async function revise(
  ctx: LedgerContext,
  client: TxClient,
  transactionId: string,
  next: Revision,
): Promise<RowChange> {
  const row = await repo.lockTransaction(client, transactionId);
  if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
  assertNotFinal(row);
  // A payout stays what the customer asked for: the same kind, funded the same way.
  const payout = PAYOUT_TYPES.has(row.transaction_type) || PAYOUT_TYPES.has(next.type);
  if (payout && (next.type !== row.transaction_type || next.direction !== row.direction)) {
    throw new AppError(
      'CONFLICT',
      'A payout cannot become another kind of transaction, nor another kind become a payout. Reject it, or record a new transaction.',
    );
  }
  const crypto = next.direction !== 'none';
  const newAsset = crypto ? assetOf(next.assetId) : null;
  if (crypto && next.amount <= 0n)
    throw new AppError('VALIDATION_FAILED', 'Amount must be greater than 0');
  if (newAsset) assertFits(newAsset, next.amount);
  assertFiatFits(next.usdAmount);
  assertFiatFits(next.audAmount);
  // An edit never drops a reference: an empty one keeps what the row has.
  const transactionHash =
    next.transactionHash == null || next.transactionHash === ''
      ? row.transaction_hash
      : newAsset && row.transaction_type !== 'bank_transfer'
        ? chainHash(newAsset, next.transactionHash)
        : next.transactionHash;
  const oldAsset = row.wallet_id && row.direction !== 'none' ? assetOf(row.asset_id) : null;
  const before = stateOf(row);
  if (before.fee > 0n && oldAsset !== newAsset) {
    throw new AppError(
      'CONFLICT',
      'This withdrawal carries a network fee in its asset, so its asset cannot be changed. Delete it and add a new transaction instead.',
    );
  }
  const wallets = new Map<TAnyAssetId, WalletRow>();
  for (const assetId of [oldAsset, newAsset].filter((a) => a !== null).sort()) {
    if (!wallets.has(assetId)) {
      wallets.set(
        assetId,
        await repo.lockWallet(client, row.user_id, assetId, ASSETS[assetId].network),
      );
    }
  }
  const after: LedgerRowState = {
    status: next.status,
    direction: next.direction,
    amount: crypto ? next.amount : 0n,
    fee: oldAsset === newAsset ? before.fee : 0n,
    deleted: false,
  };
  const walletOf = (assetId: TAnyAssetId) => {
    const wallet = wallets.get(assetId);
    if (!wallet) throw new Error(`wallet ${assetId} not locked`);
    return wallet;
  };
  if (oldAsset !== null && oldAsset === newAsset) {
    await applyDelta(ctx, client, walletOf(oldAsset), oldAsset, effectDelta(before, after));
  } else {
    if (oldAsset)
      await applyDelta(ctx, client, walletOf(oldAsset), oldAsset, effectDelta(before, null));
    if (newAsset)
      await applyDelta(ctx, client, walletOf(newAsset), newAsset, effectDelta(null, after));
  }
  const revision: RowRevision = {
    transactionType: next.type,
    direction: next.direction,
    assetId: newAsset ?? next.assetId,
    network: newAsset ? ASSETS[newAsset].network : null,
    walletId: newAsset ? walletOf(newAsset).id : null,
    cryptoAmount: newAsset ? fromMinor(newAsset, next.amount) : '0',
    usdAmount: next.usdAmount,
    audAmount: next.audAmount,
    currency: next.currency,
    // A bank transfer keeps its rate: its USD figure is derived from it.
    exchangeRate: row.transaction_type === 'bank_transfer' ? row.exchange_rate : null,
    status: next.status,
    transactionDate: next.transactionDate,
    withdrawalAddress: next.withdrawalAddress,
    transactionHash,
    updatedBy: next.updatedBy,
  };
  const revised = await oneCreditPerChainTransaction(() =>
    repo.updateRow(client, transactionId, revision),
  );
  return { before: row, after: await changed(ctx, client, revised) };
}

/** An admin deletion: the row is marked deleted and its effect reversed. */
export async function remove(
  ctx: LedgerContext,
  client: TxClient,
  transactionId: string,
  by: string | null,
): Promise<RowChange> {
  const row = await repo.lockTransaction(client, transactionId);
  if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
  assertNotFinal(row);
  if (row.wallet_id && row.direction !== 'none') {
    const assetId = assetOf(row.asset_id);
    const wallet = await repo.lockWallet(client, row.user_id, assetId, ASSETS[assetId].network);
    await applyDelta(ctx, client, wallet, assetId, effectDelta(stateOf(row), null));
  }
  const deleted = await repo.markDeleted(client, transactionId, by);
  return { before: row, after: await changed(ctx, client, deleted) };
}
