import { randomUUID } from 'node:crypto';
import { ASSETS, fromMinor, type TAnyAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { chainDepositsRepository as repo } from './chain-deposits.repository';
import type { TransactionRow } from './ledger.repository';
import type { LedgerContext } from './ledger-context';
import {
  assertFiatFits,
  assertFits,
  assetOf,
  chainHash,
  minor,
  oneCreditPerChainTransaction,
} from './ledger-rules';

/**
 * A chain block's deposits in a few statements (the chain watcher): pending credits when
 * seen, completed at their confirmations, many rows and wallets per statement.
 */

/** A chain deposit seen by the watcher, not yet confirmed (ledger.postPendingDeposits). */
export type PendingDepositInput = {
  userId: string;
  assetId: TAnyAssetId;
  /** Minor units of the asset. */
  amount: bigint;
  usdAmount: string | null;
  transactionHash: string | null;
  memo: string | null;
};

/**
 * The chain deposits of one block, as pending credits, in one statement (the watcher;
 * `post` writes one row). A pending credit changes no balance (ledger.effects), so no
 * wallet is locked: the wallets are only made when missing. The rows are returned in
 * the order given.
 */
export async function postPendingDeposits(
  ctx: LedgerContext,
  client: TxClient,
  inputs: PendingDepositInput[],
): Promise<TransactionRow[]> {
  if (inputs.length === 0) return [];
  for (const input of inputs) {
    if (input.amount <= 0n)
      throw new AppError('VALIDATION_FAILED', 'Amount must be greater than 0');
    assertFits(input.assetId, input.amount);
    assertFiatFits(input.usdAmount);
  }
  const wallets = await repo.ensureWallets(
    client,
    inputs.map((i) => ({
      userId: i.userId,
      assetId: i.assetId,
      network: ASSETS[i.assetId].network,
    })),
  );
  const rows = inputs.map((i) => {
    const walletId = wallets.get(`${i.userId}/${i.assetId}`);
    if (!walletId) throw new Error(`wallet ${i.assetId} of ${i.userId} vanished`);
    return {
      id: randomUUID(),
      userId: i.userId,
      walletId,
      assetId: i.assetId,
      network: ASSETS[i.assetId].network,
      cryptoAmount: fromMinor(i.assetId, i.amount),
      usdAmount: i.usdAmount,
      memo: i.memo,
      transactionHash: chainHash(i.assetId, i.transactionHash),
    };
  });
  const inserted = await oneCreditPerChainTransaction(() =>
    repo.insertPendingDeposits(client, rows),
  );
  const byId = new Map(inserted.map((r) => [r.id, r]));
  await ctx.afterChange?.(client, [...new Set(inputs.map((i) => i.userId))]);
  return rows.map((r) => {
    const row = byId.get(r.id);
    if (!row) throw new Error(`deposit ${r.id} was not written`);
    return row;
  });
}

/**
 * Completes pending chain deposits (the watcher, at their confirmations): each amount
 * added to its wallet, many rows and wallets per statement. Rows are locked before
 * wallets, in id order, as changeStatus does. A row that is no longer a pending deposit
 * (staff completed, failed or deleted it meanwhile) is left as staff left it; the rows
 * completed here are returned.
 */
export async function completeDeposits(
  ctx: LedgerContext,
  client: TxClient,
  transactionIds: string[],
): Promise<TransactionRow[]> {
  if (transactionIds.length === 0) return [];
  const rows = (await repo.lockTransactions(client, transactionIds)).filter(
    (row) =>
      row.transaction_type === 'deposit' &&
      row.direction === 'credit' &&
      row.status === 'pending' &&
      row.deleted_at === null,
  );
  if (rows.length === 0) return [];
  const credit = new Map<string, bigint>();
  for (const row of rows) {
    if (!row.wallet_id) throw new Error(`deposit ${row.id} has no wallet`);
    const amount = minor(row.crypto_amount, assetOf(row.asset_id));
    credit.set(row.wallet_id, (credit.get(row.wallet_id) ?? 0n) + amount);
  }
  const balances: Array<{ id: string; balance: string }> = [];
  for (const wallet of await repo.lockWalletsById(client, [...credit.keys()])) {
    const assetId = assetOf(wallet.asset_id);
    const balance = minor(wallet.balance_crypto, assetId);
    const next = balance + (credit.get(wallet.id) ?? 0n);
    assertFits(assetId, next);
    await ctx.beforeBalanceChange?.(client, wallet, balance);
    balances.push({ id: wallet.id, balance: fromMinor(assetId, next) });
  }
  await repo.setWalletBalances(client, balances);
  const completed = await repo.completeAll(
    client,
    rows.map((r) => r.id),
  );
  await ctx.afterChange?.(client, [...new Set(rows.map((r) => r.user_id))]);
  return completed;
}
