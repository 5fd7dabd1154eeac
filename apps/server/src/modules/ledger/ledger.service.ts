import { randomUUID } from 'node:crypto';
import {
  ASSETS,
  assetById,
  formatAmount,
  fromMinor,
  normalizeTxHash,
  parseAmount,
  type TAnyAssetId,
} from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import { effectDelta, type LedgerRowState, type TDirection, type TStatus } from './ledger.effects';
import {
  type RowRevision,
  ledgerRepository as repo,
  type TransactionRow,
  type WalletRow,
} from './ledger.repository';

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
 * A wallet locked in the caller's transaction, with what is available in it: a request
 * checks its funds on it and then posts on it, so the balance checked is the balance the
 * ledger changes, with one lock.
 */
export type LockedWallet = {
  readonly row: WalletRow;
  readonly assetId: TAnyAssetId;
  /** balance − held, in minor units. */
  readonly available: bigint;
};

const PAYOUT_TYPES: ReadonlySet<string> = new Set(['withdrawal', 'bank_transfer']);

/**
 * History that cannot be rewritten: a payout that was completed or rejected is final, and
 * an adjustment is corrected by a reversing adjustment, never changed. (The database's
 * `transactions_final` trigger refuses the same, whatever code or console asks.)
 */
function assertNotFinal(row: TransactionRow): void {
  if (row.transaction_type === 'adjustment') {
    throw new AppError(
      'CONFLICT',
      'A balance adjustment is final. Correct it with a new, reversing adjustment.',
    );
  }
  if (PAYOUT_TYPES.has(row.transaction_type) && row.status !== 'pending') {
    throw new AppError(
      'CONFLICT',
      `This payout is final: it was ${row.status === 'completed' ? 'completed' : 'rejected'}. Record a correction as a new adjustment with a reason.`,
    );
  }
}

/**
 * What a numeric(38, 18) column holds: 20 whole digits. A balance (or an amount) past it
 * would make PostgreSQL refuse the write with an overflow; the ledger refuses it first,
 * with a message, before anything is written.
 */
function assertFits(assetId: TAnyAssetId, minor: bigint): void {
  const asset = ASSETS[assetId];
  if (minor >= 10n ** BigInt(20 + asset.decimals)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `This is more ${asset.symbol} than a wallet can hold. Check the amount.`,
    );
  }
}

/** Fiat figures are numeric(20, 2): at most 18 whole digits. */
function assertFiatFits(value: string | null | undefined): void {
  if (value == null) return;
  const whole = value.replace(/^-/, '').split('.')[0] ?? '';
  if (whole.replace(/^0+/, '').length > 18) {
    throw new AppError('VALIDATION_FAILED', 'This amount is too large to record.');
  }
}

/**
 * A chain transaction hash in its network's one form (EVM: 0x + lower-case hex; Bitcoin and
 * TRON: lower-case hex), so the same chain transaction is one value everywhere it is kept.
 */
function chainHash(assetId: TAnyAssetId, hash: string | null | undefined): string | null {
  if (hash == null || hash === '') return null;
  const result = normalizeTxHash(assetId, hash);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
  return result.value;
}

/** pg's unique violation on the deposit hash index: the chain deposit is already credited. */
function isDuplicateDeposit(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    'code' in err &&
    err.code === '23505' &&
    'constraint' in err &&
    err.constraint === 'transactions_deposit_chain_hash_key'
  );
}

export const DUPLICATE_DEPOSIT = 'This chain transaction was already credited as a deposit.';

/** Runs a write that may hit the one-credit-per-chain-transaction index, as a clear 409. */
async function oneCreditPerChainTransaction<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
    throw err;
  }
}

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
export type LedgerChangeHook = (client: TxClient, userIds: string[]) => Promise<void>;

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

export function createLedger(
  opts: { beforeBalanceChange?: BalanceChangeHook; afterChange?: LedgerChangeHook } = {},
) {
  async function changed<R extends { user_id: string }>(client: TxClient, row: R): Promise<R> {
    await opts.afterChange?.(client, [row.user_id]);
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
    assertFits(assetId, nextBalance);
    if (delta.balance !== 0n) await opts.beforeBalanceChange?.(client, wallet, balance);
    await repo.setWalletAmounts(
      client,
      wallet.id,
      fromMinor(assetId, nextBalance),
      fromMinor(assetId, nextHeld),
    );
  }

  return {
    /** Locks the customer's wallet of an asset (creating it when missing) for a request to check. */
    async lockWallet(
      client: TxClient,
      userId: string,
      assetId: TAnyAssetId,
    ): Promise<LockedWallet> {
      const asset = ASSETS[assetId];
      const row = await repo.lockWallet(client, userId, asset.id, asset.network);
      const available = minor(row.balance_crypto, asset.id) - minor(row.held, asset.id);
      return { row, assetId: asset.id, available };
    },

    /**
     * Writes a ledger row and applies its effect. `opts.wallet`: the wallet the caller
     * already locked with lockWallet in this transaction (it must be this row's).
     */
    async post(
      client: TxClient,
      input: PostInput,
      opts: { wallet?: LockedWallet } = {},
    ): Promise<TransactionRow> {
      const asset = ASSETS[input.assetId];
      if (input.amount <= 0n)
        throw new AppError('VALIDATION_FAILED', 'Amount must be greater than 0');
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
        }),
      );
      return changed(client, row);
    },

    /**
     * The chain deposits of one block, as pending credits, in one statement (the watcher;
     * `post` writes one row). A pending credit changes no balance (ledger.effects), so no
     * wallet is locked: the wallets are only made when missing. The rows are returned in
     * the order given.
     */
    async postPendingDeposits(
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
      await opts.afterChange?.(client, [...new Set(inputs.map((i) => i.userId))]);
      return rows.map((r) => {
        const row = byId.get(r.id);
        if (!row) throw new Error(`deposit ${r.id} was not written`);
        return row;
      });
    },

    /**
     * Completes pending chain deposits (the watcher, at their confirmations): each amount
     * added to its wallet, many rows and wallets per statement. Rows are locked before
     * wallets, in id order, as changeStatus does. A row that is no longer a pending deposit
     * (staff completed, failed or deleted it meanwhile) is left as staff left it; the rows
     * completed here are returned.
     */
    async completeDeposits(client: TxClient, transactionIds: string[]): Promise<TransactionRow[]> {
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
        await opts.beforeBalanceChange?.(client, wallet, balance);
        balances.push({ id: wallet.id, balance: fromMinor(assetId, next) });
      }
      await repo.setWalletBalances(client, balances);
      const completed = await repo.completeAll(
        client,
        rows.map((r) => r.id),
      );
      await opts.afterChange?.(client, [...new Set(rows.map((r) => r.user_id))]);
      return completed;
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
      assertNotFinal(row);
      // A bank payout's reference is the bank's; a crypto row's is its chain transaction.
      const crypto = row.wallet_id !== null && row.transaction_type !== 'bank_transfer';
      const transactionHash = crypto
        ? chainHash(assetOf(row.asset_id), change.transactionHash)
        : (change.transactionHash ?? null);
      if (row.wallet_id) {
        const assetId = assetOf(row.asset_id);
        const wallet = await repo.lockWallet(client, row.user_id, assetId, ASSETS[assetId].network);
        const before = stateOf(row);
        await applyDelta(client, wallet, assetId, effectDelta(before, { ...before, status: next }));
      }
      const updated = await repo.updateStatus(client, transactionId, {
        status: next,
        transactionHash,
        reason: change.reason ?? null,
        processedBy: change.processedBy,
      });
      return changed(client, updated);
    },

    /** Records a fiat-only row (a bank transfer staff entered): it touches no wallet. */
    async postFiat(client: TxClient, input: PostFiatInput): Promise<TransactionRow> {
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
      return { before: row, after: await changed(client, revised) };
    },

    /** An admin deletion: the row is marked deleted and its effect reversed. */
    async remove(client: TxClient, transactionId: string, by: string | null): Promise<RowChange> {
      const row = await repo.lockTransaction(client, transactionId);
      if (!row || row.deleted_at) throw new AppError('NOT_FOUND', 'Transaction not found.');
      assertNotFinal(row);
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
      return repo.reconcile(db);
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
