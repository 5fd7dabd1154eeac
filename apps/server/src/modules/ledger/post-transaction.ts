import { ASSETS, fromMinor, type TAnyAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { effectDelta, type TStatus } from './ledger.effects';
import { ledgerRepository as repo, type TransactionRow } from './ledger.repository';
import { applyDelta, changed, type LedgerContext, type LockedWallet } from './ledger-context';
import {
  assertFiatFits,
  assertFits,
  chainHash,
  minor,
  oneCreditPerChainTransaction,
} from './ledger-rules';

/** Posting a row: a request locks the wallet it checks, then posts the row and its effect. */

export type PostInput = {
  userId: string;
  assetId: TAnyAssetId;
  type:
    | 'deposit'
    | 'withdrawal'
    | 'bank_transfer'
    | 'staking_reward'
    | 'adjustment'
    | 'buy'
    | 'sell'
    | 'others';
  direction: 'credit' | 'debit';
  /** Minor units of the asset. */
  amount: bigint;
  fee?: bigint;
  status: TStatus;
  usdAmount?: string | null;
  /** The AUD figure: what staff entered with it, or a bank payout's amount. */
  audAmount?: string | null;
  /** 'USD' unless the row is a payout in another currency (a bank payout: 'AUD'). */
  currency?: 'USD' | 'AUD';
  /** A bank payout's rates: USD per 1 AUD, and USD per unit of the asset that funds it. */
  exchangeRate?: string | null;
  priceUsd?: string | null;
  withdrawalAddress?: string | null;
  memo?: string | null;
  transactionHash?: string | null;
  reason?: string | null;
  createdBy: string | null;
  stakingCycleStart?: Date | null;
  transactionDate?: Date | null;
  /** The final row an adjustment corrects (a completed deposit, buy or sell is never edited). */
  correctsTransactionId?: string | null;
};

/** A row that moves fiat only (a bank transfer staff recorded): no wallet, no effect. */
export type PostFiatInput = {
  userId: string;
  type: 'bank_transfer';
  currency: 'AUD' | 'USD';
  usdAmount: string;
  audAmount: string | null;
  status: TStatus;
  transactionHash?: string | null;
  createdBy: string | null;
  transactionDate?: Date | null;
};

/** Locks the customer's wallet of an asset (creating it when missing) for a request to check. */
export async function lockWallet(
  client: TxClient,
  userId: string,
  assetId: TAnyAssetId,
): Promise<LockedWallet> {
  const asset = ASSETS[assetId];
  const row = await repo.lockWallet(client, userId, asset.id, asset.network);
  const available = minor(row.balance_crypto, asset.id) - minor(row.held, asset.id);
  return { row, assetId: asset.id, available };
}

/**
 * Writes a ledger row and applies its effect. `opts.wallet`: the wallet the caller
 * already locked with lockWallet in this transaction (it must be this row's).
 */
export async function post(
  ctx: LedgerContext,
  client: TxClient,
  input: PostInput,
  opts: { wallet?: LockedWallet } = {},
): Promise<TransactionRow> {
  const asset = ASSETS[input.assetId];
  if (input.amount <= 0n) throw new AppError('VALIDATION_FAILED', 'Amount must be greater than 0');
  const fee = input.fee ?? 0n;
  assertFits(asset.id, input.amount + fee);
  assertFiatFits(input.usdAmount);
  assertFiatFits(input.audAmount);
  const transactionHash = chainHash(asset.id, input.transactionHash);
  if (
    opts.wallet &&
    (opts.wallet.assetId !== asset.id || opts.wallet.row.user_id !== input.userId)
  ) {
    throw new Error("post: the locked wallet is not this row's");
  }
  const wallet =
    opts.wallet?.row ?? (await repo.lockWallet(client, input.userId, asset.id, asset.network));
  await applyDelta(
    ctx,
    client,
    wallet,
    asset.id,
    effectDelta(null, {
      status: input.status,
      direction: input.direction,
      amount: input.amount,
      fee,
      deleted: false,
    }),
  );
  const row = await oneCreditPerChainTransaction(() =>
    repo.insertTransaction(client, {
      userId: input.userId,
      walletId: wallet.id,
      transactionType: input.type,
      direction: input.direction,
      assetId: asset.id,
      network: asset.network,
      cryptoAmount: fromMinor(asset.id, input.amount),
      fee: fromMinor(asset.id, fee),
      usdAmount: input.usdAmount ?? null,
      audAmount: input.audAmount ?? null,
      currency: input.currency ?? 'USD',
      exchangeRate: input.exchangeRate ?? null,
      withdrawalAddress: input.withdrawalAddress ?? null,
      memo: input.memo ?? null,
      transactionHash,
      status: input.status,
      reason: input.reason ?? null,
      createdBy: input.createdBy,
      stakingCycleStart: input.stakingCycleStart ?? null,
      transactionDate: input.transactionDate ?? null,
      priceUsd: input.priceUsd ?? null,
      correctsTransactionId: input.correctsTransactionId ?? null,
    }),
  );
  return changed(ctx, client, row);
}

/** Records a fiat-only row (a bank transfer staff entered): it touches no wallet. */
export async function postFiat(
  ctx: LedgerContext,
  client: TxClient,
  input: PostFiatInput,
): Promise<TransactionRow> {
  assertFiatFits(input.usdAmount);
  assertFiatFits(input.audAmount);
  const row = await repo.insertTransaction(client, {
    userId: input.userId,
    walletId: null,
    transactionType: input.type,
    direction: 'none',
    assetId: input.currency,
    network: null,
    cryptoAmount: '0',
    fee: '0',
    usdAmount: input.usdAmount,
    audAmount: input.audAmount,
    currency: input.currency,
    exchangeRate: null,
    withdrawalAddress: null,
    memo: null,
    transactionHash: input.transactionHash ?? null,
    status: input.status,
    reason: null,
    createdBy: input.createdBy,
    stakingCycleStart: null,
    transactionDate: input.transactionDate ?? null,
    priceUsd: null,
  });
  return changed(ctx, client, row);
}
