import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Ledger, TransactionRow } from '../ledger';
import type { MoneyControls } from '../money-controls';
import type { Outbox } from '../outbox';
import type { PriceService } from '../prices';
import type { SecurityHold } from '../security-hold';
import type { StepUp } from '../step-up';
import { CANCELLED_FOR_STAFF, isCancelledByOwner } from './cancel-rules';
import { payoutMail } from './withdrawal-mail';
import { withdrawalsRepository as repo } from './withdrawals.repository';

/**
 * What the parts of the withdrawals service share, built once by
 * `createWithdrawalsService`: the ledger, the money switches and limits, and the outbox.
 */
export type WithdrawalsContext = {
  pool: pg.Pool;
  ledger: Ledger;
  prices: Pick<PriceService, 'current'>;
  controls: MoneyControls;
  outbox: Pick<Outbox, 'mail' | 'deliver'>;
  securityHold: Pick<SecurityHold, 'assertClear'>;
  stepUp: Pick<StepUp, 'confirm'>;
  /** The audit log: a customer's cancellation is recorded with the customer as actor. */
  audit: Pick<AuditLog, 'record'>;
  publicUrl: string;
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What the staff screen adds to a completion or rejection, inside its database
 * transaction: a policy on the locked row (four-eyes) and the audit row, written last.
 */
export type StaffHooks = {
  guard?: (row: TransactionRow) => void;
  /** A check that reads the database on the locked row (the payout's way out on chain). */
  check?: (client: pg.PoolClient, row: TransactionRow) => Promise<void>;
  record?: (client: pg.PoolClient, before: TransactionRow, after: TransactionRow) => Promise<void>;
};

/**
 * Queues the customer's mail about a payout in the transaction that changed it: it
 * leaves when that commits (the outbox delivers it, and retries), and never if it rolls back.
 */
export async function tell(
  ctx: WithdrawalsContext,
  client: pg.PoolClient,
  row: TransactionRow,
): Promise<void> {
  const to = await repo.emailOf(client, row.user_id);
  if (to) await ctx.outbox.mail(client, { to, ...payoutMail(row, ctx.publicUrl) });
}

/**
 * Locks a payout that staff may still act on: a crypto withdrawal or a bank transfer,
 * found and pending; then the caller's policy (four-eyes) judges the locked row.
 */
export async function lockPending(
  client: pg.PoolClient,
  id: string,
  guard?: StaffHooks['guard'],
): Promise<TransactionRow> {
  const row = UUID.test(id) ? await repo.lockWithdrawal(client, id) : null;
  if (!row) throw new AppError('NOT_FOUND', 'Withdrawal not found.');
  guard?.(row);
  if (row.status === 'completed') {
    throw new AppError('CONFLICT', 'This withdrawal was already completed.');
  }
  if (row.status === 'failed') {
    throw new AppError(
      'CONFLICT',
      isCancelledByOwner(row) ? CANCELLED_FOR_STAFF : 'This withdrawal was already rejected.',
    );
  }
  return row;
}
