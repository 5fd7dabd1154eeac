import { ASSETS, formatAmount, fromMinor, parseAmount, type TAnyAssetId } from '@coffer/shared';
import type pg from 'pg';
import type { TxClient } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { effectDelta, type LedgerRowState, type TDirection, type TStatus } from './ledger.effects';
import {
  RECONCILE_SQL,
  ledgerRepository as repo,
  type TransactionRow,
  type WalletRow,
} from './ledger.repository';

export type PostInput = {
  userId: string;
  assetId: TAnyAssetId;
  type: 'deposit' | 'withdrawal' | 'staking_reward' | 'adjustment' | 'buy' | 'sell' | 'others';
  direction: 'credit' | 'debit';
  /** Minor units of the asset. */
  amount: bigint;
  fee?: bigint;
  status: TStatus;
  usdAmount?: string | null;
  withdrawalAddress?: string | null;
  memo?: string | null;
  transactionHash?: string | null;
  reason?: string | null;
  createdBy: string | null;
  stakingCycleStart?: Date | null;
  transactionDate?: Date | null;
};

/**
 * Called inside the transaction, with the wallet locked, before an ETH balance changes:
 * staking accrual is checkpointed on the balance that was held until now.
 */
export type BalanceChangeHook = (
  client: TxClient,
  wallet: WalletRow,
  balanceBefore: bigint,
) => Promise<void>;

const minor = (value: string, assetId: TAnyAssetId) => parseAmount(value, ASSETS[assetId].decimals);

function stateOf(row: TransactionRow): LedgerRowState {
  const assetId = row.asset_id as TAnyAssetId;
  const crypto = row.direction !== 'none' && assetId in ASSETS;
  return {
    status: row.status,
    direction: row.direction as TDirection,
    amount: crypto ? minor(row.crypto_amount, assetId) : 0n,
    fee: crypto ? minor(row.fee, assetId) : 0n,
    deleted: row.deleted_at !== null,
  };
}

export function insufficientBalance(assetId: TAnyAssetId, available: bigint): AppError {
  const asset = ASSETS[assetId];
  const shown = formatAmount(available < 0n ? 0n : available, asset.decimals, {
    minFractionDigits: 8,
    maxFractionDigits: 8,
  });
  return new AppError(
    'INSUFFICIENT_BALANCE',
    `Insufficient balance. You have ${shown} ${asset.symbol} available`,
  );
}

/**
 * The only code that changes a balance. Each call runs on a connection inside the
 * caller's database transaction, locks the wallet row, writes the ledger row and applies
 * its effect, and refuses anything that would leave less than nothing available.
 */
export function createLedger(opts: { beforeBalanceChange?: BalanceChangeHook } = {}) {
  async function applyDelta(
    client: TxClient,
    wallet: WalletRow,
    assetId: TAnyAssetId,
    delta: { balance: bigint; held: bigint },
  ) {
    if (delta.balance === 0n && delta.held === 0n) return;
    const balance = minor(wallet.balance_crypto, assetId);
    const held = minor(wallet.held, assetId);
    const nextBalance = balance + delta.balance;
    const nextHeld = held + delta.held;
    if (nextBalance < 0n || nextHeld < 0n || nextBalance - nextHeld < 0n) {
      throw insufficientBalance(assetId, balance - held);
    }
    if (delta.balance !== 0n) await opts.beforeBalanceChange?.(client, wallet, balance);
    await repo.setWalletAmounts(
      client,
      wallet.id,
      fromMinor(assetId, nextBalance),
      fromMinor(assetId, nextHeld),
    );
  }

  return {
    async post(client: TxClient, input: PostInput): Promise<TransactionRow> {
      const asset = ASSETS[input.assetId];
      if (input.amount <= 0n)
        throw new AppError('VALIDATION_FAILED', 'Amount must be greater than 0');
      const fee = input.fee ?? 0n;
      const wallet = await repo.lockWallet(client, input.userId, asset.id, asset.network);
      await applyDelta(
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
      return repo.insertTransaction(client, {
        userId: input.userId,
        walletId: wallet.id,
        transactionType: input.type,
        direction: input.direction,
        assetId: asset.id,
        network: asset.network,
        cryptoAmount: fromMinor(asset.id, input.amount),
        fee: fromMinor(asset.id, fee),
        usdAmount: input.usdAmount ?? null,
        audAmount: null,
        currency: 'USD',
        exchangeRate: null,
        withdrawalAddress: input.withdrawalAddress ?? null,
        memo: input.memo ?? null,
        transactionHash: input.transactionHash ?? null,
        status: input.status,
        reason: input.reason ?? null,
        createdBy: input.createdBy,
        stakingCycleStart: input.stakingCycleStart ?? null,
        transactionDate: input.transactionDate ?? null,
      });
    },

    /**
     * Moves a row to another status and applies the difference of effects: a pending
     * withdrawal completed is debited and its hold released; rejected, only released.
     */
    async changeStatus(
      client: TxClient,
      transactionId: string,
      next: TStatus,
      change: {
        transactionHash?: string | null;
        reason?: string | null;
        processedBy: string | null;
      },
    ): Promise<TransactionRow> {
      const row = await repo.lockTransaction(client, transactionId);
      if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
      if (row.wallet_id) {
        const assetId = row.asset_id as TAnyAssetId;
        const wallet = await repo.lockWallet(client, row.user_id, assetId, ASSETS[assetId].network);
        const before = stateOf(row);
        await applyDelta(client, wallet, assetId, effectDelta(before, { ...before, status: next }));
      }
      return repo.updateStatus(client, transactionId, {
        status: next,
        transactionHash: change.transactionHash ?? null,
        reason: change.reason ?? null,
        processedBy: change.processedBy,
      });
    },

    /** Every wallet whose balance or hold is not the sum of its ledger rows (empty = clean). */
    async reconcile(db: pg.Pool | TxClient) {
      const { rows } = await db.query<{
        wallet_id: string;
        user_id: string;
        asset_id: string;
        balance_crypto: string;
        held: string;
        expected_balance: string;
        expected_held: string;
      }>(RECONCILE_SQL);
      return rows;
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
