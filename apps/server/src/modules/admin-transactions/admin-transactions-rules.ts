import {
  ADMIN_AUD_PER_USD,
  ADMIN_TRANSACTION_TYPES,
  ADMIN_TX_MSG,
  convertFiat,
  normalizeBankReference,
  normalizeTxHash,
  parseAmount,
  type TAdminTransaction,
  validateAddress,
  ZTransactionType,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { TransactionRow } from '../ledger';
import { trimDecimal } from '../ledger';

/**
 * The admin transactions rules that need nothing but their arguments: which rows are final,
 * what the audit log keeps of a row, and the forms of a typed hash, address or figure.
 */

export const PAYOUT_TYPES: ReadonlySet<string> = new Set(['withdrawal', 'bank_transfer']);
export const ADMIN_TYPES: ReadonlySet<string> = new Set(ADMIN_TRANSACTION_TYPES);
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TType = TAdminTransaction['type'];
export const isType = (value: string): value is TType =>
  ZTransactionType.options.some((t) => t === value);

/** USD × 1.52, to the cent: the AUD figure when staff leave it empty. */
export function audOf(usd: string): string {
  return convertFiat(usd, ADMIN_AUD_PER_USD, 'aud-to-usd');
}

/** A bank payout's account as the audit log keeps it: in clear, the log is admin-only. */
export type BankFacts = {
  accountName: string;
  accountNumber: string;
  bsbNumber: string;
  amountFiat: string;
  currency: string;
};

/**
 * What the audit log keeps of a row: every field that decides where money goes and who
 * moved it (amount, fee, asset, address, memo, the bank account, status, reference,
 * processor, editors), so a before/after pair shows any change to a payout.
 */
export function auditView(row: TransactionRow, bank: BankFacts | null) {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.transaction_type,
    direction: row.direction,
    assetId: row.asset_id,
    network: row.network,
    amount: trimDecimal(row.crypto_amount),
    fee: trimDecimal(row.fee),
    usdAmount: row.usd_amount,
    audAmount: row.aud_amount,
    currency: row.currency,
    audUsdRate: row.exchange_rate,
    priceUsd: row.price_usd,
    status: row.status,
    date: row.transaction_date.toISOString(),
    withdrawalAddress: row.withdrawal_address,
    memo: row.memo,
    accountName: bank?.accountName ?? null,
    accountNumber: bank?.accountNumber ?? null,
    bsbNumber: bank?.bsbNumber ?? null,
    amountFiat: bank?.amountFiat ?? null,
    bankCurrency: bank?.currency ?? null,
    transactionHash: row.transaction_hash,
    reason: row.reason,
    createdBy: row.created_by,
    processedBy: row.processed_by,
    editorIds: row.editor_ids,
    deleted: row.deleted_at !== null,
  };
}

function pgError(err: unknown): { code?: unknown; constraint?: unknown } | null {
  return typeof err === 'object' && err !== null ? err : null;
}

/** pg's unique violation on the deposit hash index: the chain deposit is already credited. */
export function isDuplicateDeposit(err: unknown): boolean {
  const e = pgError(err);
  return e?.code === '23505' && e.constraint === 'transactions_deposit_chain_hash_key';
}

/** The database's own refusal of a change to a final row (trigger `transactions_final`). */
export function isFinalRow(err: unknown): boolean {
  const e = pgError(err);
  return e?.code === '23514' && e.constraint === 'transactions_final';
}

export const DUPLICATE_DEPOSIT = 'This chain transaction was already credited as a deposit.';

/** Completed or rejected payouts are history: the message says which, and what to do. */
function finalPayoutMessage(row: Pick<TransactionRow, 'transaction_type' | 'status'>) {
  if (!PAYOUT_TYPES.has(row.transaction_type)) return null;
  if (row.status === 'completed') return ADMIN_TX_MSG.payoutCompletedFinal;
  if (row.status === 'failed') return ADMIN_TX_MSG.payoutRejectedFinal;
  return null;
}

/** Money that arrived or was traded: final once completed, corrected by an adjustment. */
export const FINAL_WHEN_COMPLETED: ReadonlySet<string> = new Set(['deposit', 'buy', 'sell']);

/**
 * Why a row may not be edited or deleted at all, or null. A completed deposit, buy or sell
 * is history as much as a paid payout: a correction is a new, reasoned, two-person
 * adjustment that names it (decision 0036), so no one rewrites what a customer was credited.
 */
export function finalRowMessage(row: Pick<TransactionRow, 'transaction_type' | 'status'>) {
  if (row.transaction_type === 'adjustment') return ADMIN_TX_MSG.adjustmentFinal;
  if (FINAL_WHEN_COMPLETED.has(row.transaction_type) && row.status === 'completed') {
    return ADMIN_TX_MSG.completedFinal;
  }
  return finalPayoutMessage(row);
}

/**
 * A bank account as a proposal shows it to every staff member (support reads the changes
 * waiting too): the number masked, with a short keyed fingerprint of the whole of it, so
 * that a change of the number shows even when its last digits stay the same.
 */
export function maskedBank(
  bank: BankFacts | null,
  fingerprint: (accountNumber: string) => string,
): BankFacts | null {
  if (!bank) return null;
  const shown = `••••${bank.accountNumber.slice(-4)} #${fingerprint(bank.accountNumber)}`;
  return { ...bank, accountNumber: shown };
}

/**
 * A chain hash as its network writes it (or a bank reference for a bank transfer); a bad
 * one is the admin's to fix. Empty stays empty.
 */
export function referenceFor(bank: boolean, assetId: string, value: string): string | null {
  if (value === '') return null;
  const result = bank ? normalizeBankReference(value) : normalizeTxHash(assetId, value);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
  return result.value;
}

/** Two typed or stored decimal figures name the same amount ('100' and '100.00'). */
export function sameFigure(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return parseAmount(a, 18) === parseAmount(b, 18);
  } catch {
    return false;
  }
}

/** A withdrawal address as the network's rule leaves it; null for other types. */
export function addressFor(type: string, assetId: string, address: string): string | null {
  if (type !== 'withdrawal') return null;
  const result = validateAddress(assetId, address);
  if (!result.ok) throw new AppError('VALIDATION_FAILED', result.message);
  return result.address;
}

/**
 * Four-eyes (product.md M7): money leaves only when a second admin completes what the
 * first recorded, so an Add may not record a payout as completed.
 */
export function refuseSelfCompletedPayout(type: string, status: string): void {
  if (PAYOUT_TYPES.has(type) && status === 'completed') {
    throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutPending);
  }
}

/**
 * A payout staff record is dated when it is recorded (an edit keeps its date): the daily
 * limit counts a customer's payouts by date, so a payout dated in the past would count
 * against no later one, and many of them would pass a limit each one alone stays under.
 * Other rows keep the date staff give them.
 */
export function staffPayoutDate(type: string, current: Date | null, typed: string): Date {
  if (!PAYOUT_TYPES.has(type)) return new Date(typed);
  return current ?? new Date();
}
