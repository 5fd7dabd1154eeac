import { assetById } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import { trimDecimal } from '../ledger';
import type { ChangeDescription } from '../staff-changes';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import { type AdminTransactionsContext, bankFacts } from './admin-transactions-context';
import { auditView, maskedBank } from './admin-transactions-rules';

/**
 * What a ledger change's proposal stores and shows: every staff member reads the changes
 * waiting (support too), so a bank account is sealed in the stored payload and masked in
 * what is shown; the approval opens it again to record it.
 */

export type Described<P> = ChangeDescription<P>;

/** A form with its bank account sealed (encrypted with the server key). */
export type Sealed<T> = Omit<T, 'bank'> & { bankSealed: string | null };

type WithBank = { bank?: { accountName: string; accountNumber: string; bsbNumber: string } };

export function sealBank<T extends WithBank>(ctx: AdminTransactionsContext, body: T): Sealed<T> {
  const { bank, ...rest } = body;
  return { ...rest, bankSealed: bank ? ctx.secrets.encrypt(JSON.stringify(bank)) : null };
}

export function openBank<T extends WithBank>(ctx: AdminTransactionsContext, payload: Sealed<T>): T {
  const { bankSealed, ...rest } = payload;
  return {
    ...rest,
    ...(bankSealed ? { bank: JSON.parse(ctx.secrets.decrypt(bankSealed)) } : {}),
  } as unknown as T;
}

const TYPE_WORDS: Record<string, string> = {
  deposit: 'deposit',
  withdrawal: 'withdrawal',
  buy: 'buy',
  sell: 'sell',
  bank_transfer: 'bank transfer',
  adjustment: 'adjustment',
  staking_reward: 'staking reward',
};

/** "a completed deposit of 1 BTC ($65000.00)", "a pending bank transfer of $500.00 (AUD)". */
export function rowWords(row: TransactionRow): string {
  const type = TYPE_WORDS[row.transaction_type] ?? row.transaction_type;
  const usd = row.usd_amount ? `$${row.usd_amount}` : null;
  if (row.direction === 'none') {
    return `a ${row.status} ${type} of ${usd ?? '$0'} (${row.currency ?? 'AUD'})`;
  }
  const symbol = assetById(row.asset_id)?.symbol ?? row.asset_id;
  const sign = row.transaction_type === 'adjustment' ? ` ${row.direction}` : '';
  return `a ${row.status}${sign} ${type} of ${trimDecimal(row.crypto_amount)} ${symbol}${usd ? ` (${usd})` : ''}`;
}

/** The fingerprint a masked account number carries: 8 hex digits of a keyed hash. */
export const accountFingerprint = (ctx: AdminTransactionsContext) => (accountNumber: string) =>
  ctx.secrets.keyedHash('bank-account-shown', accountNumber).slice(0, 8);

/** A row as a proposal shows it: its fields, the bank account masked, no id yet. */
export async function describedRow(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  row: TransactionRow,
) {
  const full = await repo.findById(client, row.id);
  if (!full) throw new AppError('NOT_FOUND', 'Transaction not found.');
  const masked = maskedBank(bankFacts(ctx, full), accountFingerprint(ctx));
  const { id: _id, deleted: _deleted, ...shown } = auditView(row, masked);
  return { after: { email: full.email, what: rowWords(row), shown } };
}

/** A row's before and after as a proposal shows them (bank accounts masked). */
export function shownPair(
  ctx: AdminTransactionsContext,
  before: TransactionRow,
  beforeBank: ReturnType<typeof bankFacts>,
  after: TransactionRow,
  afterBank: ReturnType<typeof bankFacts>,
) {
  const strip = (v: ReturnType<typeof auditView>) => {
    const { id: _id, ...rest } = v;
    return rest;
  };
  return {
    before: strip(auditView(before, maskedBank(beforeBank, accountFingerprint(ctx)))),
    after: strip(auditView(after, maskedBank(afterBank, accountFingerprint(ctx)))),
  };
}
