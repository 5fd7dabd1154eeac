import {
  ADMIN_TX_MSG,
  assetById,
  type TAdminTransaction,
  type TAdminTransactionSummary,
  type TCreateAdminTransaction,
  type TStepUp,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type { Secrets } from '@server/lib/crypto';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Ledger, TransactionRow } from '../ledger';
import { trimDecimal, usdShown } from '../ledger';
import type { Outbox } from '../outbox';
import type { PayoutsService } from '../payouts';
import type { StaffChanges } from '../staff-changes';
import type { StepUp, StepUpSubject } from '../step-up';
import type { WithdrawalsService } from '../withdrawals';
import {
  type AdminTransactionListRow,
  type AdminTransactionRow,
  type BankAccountRow,
  adminTransactionsRepository as repo,
} from './admin-transactions.repository';
import { auditView, type BankFacts, isType } from './admin-transactions-rules';

/**
 * Who acts, and from where: the audit row's actor and address, and the session and client
 * whose fresh second factor confirms a change (step-up, as a customer's payout takes).
 */
export type Actor = { id: string; ip: string | null; session: StepUpSubject; client: Client };

/**
 * What the parts of the admin transactions service share, built once by
 * `createAdminTransactionsService`: the ledger, the audit log, the payouts it hands crypto
 * withdrawals to, and the key that opens a bank payout's account details.
 */
export type AdminTransactionsContext = {
  pool: pg.Pool;
  ledger: Ledger;
  audit: AuditLog;
  secrets: Secrets;
  withdrawals: WithdrawalsService;
  payouts: PayoutsService;
  stepUp: StepUp;
  /** Two people for every ledger row staff add, edit or delete, and every hand completion. */
  changes: StaffChanges;
  /** The customer's mail when a row of theirs is added, edited or deleted. */
  outbox: Pick<Outbox, 'mail'>;
  publicUrl: string;
};

export function presentSummary(row: AdminTransactionListRow): TAdminTransactionSummary {
  if (!isType(row.transaction_type)) {
    throw new Error(`unknown transaction type ${row.transaction_type}`);
  }
  return {
    id: row.id,
    customer: {
      id: row.user_id,
      email: row.email,
      fullName: row.full_name,
      username: row.username,
    },
    type: row.transaction_type,
    direction: row.direction,
    assetId: row.asset_id,
    symbol: assetById(row.asset_id)?.symbol ?? row.asset_id,
    amount: trimDecimal(row.crypto_amount),
    usdAmount: usdShown(row),
    audAmount: row.aud_amount,
    currency: row.currency,
    status: row.status,
    date: row.transaction_date.toISOString(),
  };
}

export function present(
  ctx: AdminTransactionsContext,
  row: AdminTransactionRow,
): TAdminTransaction {
  // Staff process the transfer, so they read the account it goes to.
  const bank = bankFacts(ctx, row);
  return {
    ...presentSummary(row),
    network: row.network,
    fee: trimDecimal(row.fee),
    withdrawalAddress: row.withdrawal_address,
    transactionHash: row.transaction_hash,
    memo: row.memo,
    reason: row.reason,
    completedAt: row.completed_at?.toISOString() ?? null,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    editorIds: row.editor_ids,
    processedBy: row.processed_by,
    bankTransfer: bank,
    audUsdRate: row.transaction_type === 'bank_transfer' ? row.exchange_rate : null,
    priceUsd: row.price_usd,
    correctsTransactionId: row.corrects_transaction_id,
  };
}

export function bankFacts(
  ctx: AdminTransactionsContext,
  row: BankAccountRow | null,
): BankFacts | null {
  if (!row?.account_name_encrypted || !row.account_number_encrypted || !row.bsb_number_encrypted) {
    return null;
  }
  return {
    accountName: ctx.secrets.decrypt(row.account_name_encrypted),
    accountNumber: ctx.secrets.decrypt(row.account_number_encrypted),
    bsbNumber: ctx.secrets.decrypt(row.bsb_number_encrypted),
    amountFiat: row.amount_fiat ?? '0',
    currency: row.bank_currency ?? 'AUD',
  };
}

/** A row as the audit log keeps it, with its bank account read as it is now. */
export async function audited(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  row: TransactionRow,
) {
  const bank =
    row.transaction_type === 'bank_transfer'
      ? bankFacts(ctx, await repo.bankAccountOf(client, row.id))
      : null;
  return auditView(row, bank);
}

export async function view(
  ctx: AdminTransactionsContext,
  db: pg.Pool | pg.PoolClient,
  id: string,
): Promise<TAdminTransaction> {
  const row = await repo.findById(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Transaction not found.');
  return (await withPayoutStates(ctx, [present(ctx, row)]))[0] as TAdminTransaction;
}

/** Each crypto withdrawal's way out on chain, once approved. */
export async function withPayoutStates(
  ctx: AdminTransactionsContext,
  items: TAdminTransaction[],
): Promise<TAdminTransaction[]> {
  const states = await ctx.payouts.statesOf(
    items.filter((i) => i.type === 'withdrawal').map((i) => i.id),
  );
  return items.map((i) => ({
    ...i,
    payoutState: (states.get(i.id)?.state ?? null) as TAdminTransaction['payoutState'],
  }));
}

/** The bank_transfers row of a bank transfer, account details encrypted at rest. */
export async function saveBank(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  transactionId: string,
  body: Pick<TCreateAdminTransaction, 'bank' | 'usdAmount'>,
  audAmount: string,
  keepFigure?: { amountFiat: string; currency: string },
) {
  const bank = body.bank;
  if (!bank) throw new AppError('VALIDATION_FAILED', ADMIN_TX_MSG.bankDetailsRequired);
  await repo.insertBankTransfer(client, {
    transactionId,
    accountNameEncrypted: ctx.secrets.encrypt(bank.accountName),
    accountNumberEncrypted: ctx.secrets.encrypt(bank.accountNumber),
    bsbNumberEncrypted: ctx.secrets.encrypt(bank.bsbNumber),
    amountFiat: keepFigure?.amountFiat ?? (bank.currency === 'USD' ? body.usdAmount : audAmount),
    currency: keepFigure?.currency ?? bank.currency,
  });
}

/** The acting admin's fresh second factor, used up on the change's own transaction. */
export function confirmStepUp(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  actor: Pick<Actor, 'session' | 'client'>,
  proof: TStepUp,
): Promise<void> {
  return ctx.stepUp.confirm(client, actor.session, proof, actor.client);
}

/**
 * Runs a change through the ledger and undoes it (a savepoint): a proposal is checked by
 * the very code its approval runs (balances, holds, one credit per chain transaction,
 * column limits), and what it would leave is shown to the approver. Nothing it wrote
 * stays, its announcements included (a NOTIFY of a rolled-back savepoint is dropped).
 */
export async function trial<T>(client: pg.PoolClient, act: () => Promise<T>): Promise<T> {
  await repo.savepoint(client);
  try {
    return await act();
  } finally {
    await repo.rollbackToSavepoint(client);
  }
}
