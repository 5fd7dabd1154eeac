import {
  ASSETS,
  assetById,
  formatAmount,
  normalizeTxHash,
  parseAmount,
  type TAnyAssetId,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { LedgerRowState, TDirection } from './ledger.effects';
import type { TransactionRow } from './ledger.repository';

/**
 * The rules every change of the ledger checks: what is final, what fits a column, the one
 * form of a chain hash, one credit per chain transaction, and the refusal of a balance that
 * would go below what is available.
 */

export const PAYOUT_TYPES: ReadonlySet<string> = new Set(['withdrawal', 'bank_transfer']);

/**
 * History that cannot be rewritten: a payout that was completed or rejected is final, and
 * an adjustment is corrected by a reversing adjustment, never changed. (The database's
 * `transactions_final` trigger refuses the same, whatever code or console asks.)
 */
export function assertNotFinal(row: TransactionRow): void {
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
export function assertFits(assetId: TAnyAssetId, minor: bigint): void {
  const asset = ASSETS[assetId];
  if (minor >= 10n ** BigInt(20 + asset.decimals)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `This is more ${asset.symbol} than a wallet can hold. Check the amount.`,
    );
  }
}

/** Fiat figures are numeric(20, 2): at most 18 whole digits. */
export function assertFiatFits(value: string | null | undefined): void {
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
export function chainHash(assetId: TAnyAssetId, hash: string | null | undefined): string | null {
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
export async function oneCreditPerChainTransaction<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
    throw err;
  }
}

export function assetOf(id: string): TAnyAssetId {
  const asset = assetById(id);
  if (!asset) throw new AppError('VALIDATION_FAILED', 'Please select an asset');
  return asset.id;
}

export const minor = (value: string, assetId: TAnyAssetId) =>
  parseAmount(value, ASSETS[assetId].decimals);

export function stateOf(row: TransactionRow): LedgerRowState {
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
