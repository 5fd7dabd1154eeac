import {
  ASSETS,
  assetById,
  formatAmount,
  fromMinor,
  parseAmount,
  type TAnyAssetId,
} from '@coffer/shared';
import type pg from 'pg';
import type { TxClient } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { effectDelta, type LedgerRowState, type TDirection, type TStatus } from './ledger.effects';
import {
  RECONCILE_SQL,
  type RowRevision,
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
  /** The AUD figure staff entered with it (admin.md §2.2); null for the customer's own rows. */
  audAmount?: string | null;
  withdrawalAddress?: string | null;
  memo?: string | null;
  transactionHash?: string | null;
  reason?: string | null;
  createdBy: string | null;
  stakingCycleStart?: Date | null;
  transactionDate?: Date | null;
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

/**
 * What an admin edit leaves a row as (DEVIATIONS M7). `assetId` is a catalogue asset for
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
 * Called inside the transaction, with the wallet locked, before an ETH balance changes:
 * staking accrual is checkpointed on the balance that was held until now.
 */
export type BalanceChangeHook = (
  client: TxClient,
  wallet: WalletRow,
  balanceBefore: bigint,
) => Promise<void>;

function assetOf(id: string): TAnyAssetId {
  const asset = assetById(id);
  if (!asset) throw new AppError('VALIDATION_FAILED', 'Please select an asset');
  return asset.id;
}

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
/**
 * Called inside the transaction after a customer's ledger rows changed: announces it (a
 * NOTIFY sent only if the transaction commits), so the customer's screens refresh live.
 */
export type LedgerChangeHook = (client: TxClient, userId: string) => Promise<void>;

export function createLedger(
  opts: { beforeBalanceChange?: BalanceChangeHook; afterChange?: LedgerChangeHook } = {},
) {
  async function changed<R extends { user_id: string }>(client: TxClient, row: R): Promise<R> {
    await opts.afterChange?.(client, row.user_id);
    return row;
  }

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
      const row = await repo.insertTransaction(client, {
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
      return changed(client, row);
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
      const updated = await repo.updateStatus(client, transactionId, {
        status: next,
        transactionHash: change.transactionHash ?? null,
        reason: change.reason ?? null,
        processedBy: change.processedBy,
      });
      return changed(client, updated);
    },

    /** Records a fiat-only row (a bank transfer staff entered): it touches no wallet. */
    async postFiat(client: TxClient, input: PostFiatInput): Promise<TransactionRow> {
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
      });
      return changed(client, row);
    },

    /**
     * An admin edit: the row's old effect is reversed and its new one applied, on the same
     * wallet or, when the asset changed, on each, with every wallet involved locked (in
     * asset order, so two edits cannot each hold what the other waits for). Refused, with
     * nothing changed, if any wallet would be left with less than nothing available.
     */
    async revise(client: TxClient, transactionId: string, next: Revision): Promise<RowChange> {
      const row = await repo.lockTransaction(client, transactionId);
      if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
      const crypto = next.direction !== 'none';
      const newAsset = crypto ? assetOf(next.assetId) : null;
      if (crypto && next.amount <= 0n)
        throw new AppError('VALIDATION_FAILED', 'Amount must be greater than 0');
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
        await applyDelta(client, walletOf(oldAsset), oldAsset, effectDelta(before, after));
      } else {
        if (oldAsset)
          await applyDelta(client, walletOf(oldAsset), oldAsset, effectDelta(before, null));
        if (newAsset)
          await applyDelta(client, walletOf(newAsset), newAsset, effectDelta(null, after));
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
        // A customer's bank transfer keeps its rate: its USD figure is derived from it.
        exchangeRate: newAsset ? null : row.exchange_rate,
        status: next.status,
        transactionDate: next.transactionDate,
        withdrawalAddress: next.withdrawalAddress,
        transactionHash: next.transactionHash,
        updatedBy: next.updatedBy,
      };
      const revised = await repo.updateRow(client, transactionId, revision);
      return { before: row, after: await changed(client, revised) };
    },

    /** An admin deletion: the row is marked deleted and its effect reversed. */
    async remove(client: TxClient, transactionId: string, by: string | null): Promise<RowChange> {
      const row = await repo.lockTransaction(client, transactionId);
      if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
      if (row.wallet_id && row.direction !== 'none') {
        const assetId = assetOf(row.asset_id);
        const wallet = await repo.lockWallet(client, row.user_id, assetId, ASSETS[assetId].network);
        await applyDelta(client, wallet, assetId, effectDelta(stateOf(row), null));
      }
      const deleted = await repo.markDeleted(client, transactionId, by);
      return { before: row, after: await changed(client, deleted) };
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
