import {
  ADMIN_TX_MSG,
  ASSETS,
  parseAmount,
  type TCreateAdminTransaction,
  type TPendingChange,
  withoutStepUp,
  ZAnyAssetId,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { TransactionRow } from '../ledger';
import { requestHash, runOnce } from '../ledger';
import type { ChangeKind, StaffActor } from '../staff-changes';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import {
  type AdminTransactionsContext,
  confirmStepUp,
  saveBank,
  trial,
} from './admin-transactions-context';
import {
  addressFor,
  audOf,
  DUPLICATE_DEPOSIT,
  isDuplicateDeposit,
  referenceFor,
  refuseSelfCompletedPayout,
  staffPayoutDate,
} from './admin-transactions-rules';
import { mailLedgerChange } from './customer-mail';
import {
  type Described,
  describedRow,
  openBank,
  type Sealed,
  sealBank,
} from './transaction-change-view';

/** A row staff add that can raise a balance: the 30-day rule on its customer's payouts. */
export const TRANSACTION_CREDIT = 'transaction.credit';
/** A row staff add that cannot: a payout, a sell, a fiat-only record. */
export const TRANSACTION_CREATE = 'transaction.create';

/** An Add as its proposal stores it: the form without the step-up, the bank account sealed. */
type CreateBody = Omit<TCreateAdminTransaction, 'stepUp'>;
export type CreatePayload = Sealed<CreateBody>;

const CREATE_ROUTE = 'POST /api/admin/transactions';

const credits = (body: Pick<TCreateAdminTransaction, 'type' | 'direction'>) =>
  body.type === 'deposit' ||
  body.type === 'buy' ||
  (body.type === 'adjustment' && body.direction === 'credit');

/**
 * An adjustment corrects a row of the same customer and asset, which it names: checked
 * on the row as it is now.
 */
async function correctedRow(client: pg.PoolClient, body: CreateBody) {
  const id = body.correctsTransactionId;
  const row = id ? await repo.findById(client, id) : null;
  if (!row || row.user_id !== body.userId || row.asset_id !== body.assetId) {
    throw new AppError('VALIDATION_FAILED', ADMIN_TX_MSG.correctionTargetMissing);
  }
  return row;
}

/**
 * Records an Add through the ledger, as the staff member who proposed it (`by`): the
 * approval's write, and the proposal's trial of it. Every check of the form runs here on
 * the state of the moment: the customer, a payout never recorded completed (four eyes),
 * the customer's daily limit on a payout, the corrected row of an adjustment, then the
 * ledger's own (funds, one credit per chain transaction, what a wallet holds).
 */
async function record(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  by: string,
  body: CreateBody,
): Promise<TransactionRow> {
  refuseSelfCompletedPayout(body.type, body.status);
  if (!(await repo.customerExists(client, body.userId))) {
    throw new AppError('NOT_FOUND', 'Customer not found.');
  }
  const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
  const transactionDate = staffPayoutDate(body.type, null, body.transactionDate);
  if (body.type === 'bank_transfer') {
    const currency = body.bank?.currency ?? 'AUD';
    if (body.status !== 'failed') {
      await ctx.withdrawals.assertStaffPayoutWithinLimit(client, {
        userId: body.userId,
        usdAmount: body.usdAmount,
      });
    }
    const row = await ctx.ledger.postFiat(client, {
      userId: body.userId,
      type: 'bank_transfer',
      currency,
      usdAmount: body.usdAmount,
      audAmount,
      status: body.status,
      transactionHash: referenceFor(true, currency, body.transactionHash),
      createdBy: by,
      transactionDate,
    });
    await saveBank(ctx, client, row.id, body, audAmount);
    return row;
  }
  const asset = ASSETS[ZAnyAssetId.parse(body.assetId)];
  const amount = parseAmount(body.cryptoAmount, asset.decimals);
  if (body.type === 'adjustment') {
    const corrected = await correctedRow(client, body);
    return ctx.ledger.post(client, {
      userId: body.userId,
      assetId: asset.id,
      type: 'adjustment',
      direction: body.direction === 'debit' ? 'debit' : 'credit',
      amount,
      // An adjustment is final when written: it is corrected by another, never edited.
      status: 'completed',
      usdAmount: body.usdAmount,
      audAmount,
      reason: body.reason,
      correctsTransactionId: corrected.id,
      createdBy: by,
      transactionDate,
    });
  }
  if (body.type === 'withdrawal' && body.status !== 'failed') {
    await ctx.withdrawals.assertStaffPayoutWithinLimit(client, {
      userId: body.userId,
      usdAmount: body.usdAmount,
      crypto: { assetId: asset.id, amount },
    });
  }
  const credit = body.type === 'deposit' || body.type === 'buy';
  return ctx.ledger.post(client, {
    userId: body.userId,
    assetId: asset.id,
    type: body.type,
    direction: credit ? 'credit' : 'debit',
    amount,
    status: body.status,
    usdAmount: body.usdAmount,
    audAmount,
    withdrawalAddress: addressFor(body.type, asset.id, body.withdrawalAddress),
    transactionHash: referenceFor(false, asset.id, body.transactionHash),
    createdBy: by,
    transactionDate,
  });
}

/** The same, with the database's refusal of a second credit said as staff read it. */
async function recordOnce(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  by: string,
  body: CreateBody,
): Promise<TransactionRow> {
  try {
    return await record(ctx, client, by, body);
  } catch (err) {
    if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
    throw err;
  }
}

/**
 * Adding a ledger row takes two people (decision 0036): proposed here (202, nothing
 * recorded), recorded when another staff member approves it. One kind for a row that can
 * raise a balance (a deposit, a buy, a crediting adjustment: `fundsSubject`, so neither of
 * the two decides the customer's payouts for 30 days) and one for the rest.
 */
export function createTransactionKinds(ctx: AdminTransactionsContext): ChangeKind<CreatePayload>[] {
  const kind = (name: string, fundsSubject: boolean): ChangeKind<CreatePayload> => ({
    kind: name,
    fundsSubject,
    auditAction: 'transaction.create',
    async describe(client, payload, proposer): Promise<Described<CreatePayload>> {
      const body = openBank<CreateBody>(ctx, payload);
      const { after } = await trial(client, async () => {
        const row = await recordOnce(ctx, client, proposer.userId, body);
        return describedRow(ctx, client, row);
      });
      return {
        summary: `Add ${after.what} for ${after.email}: ${body.reason}`,
        before: null,
        after: after.shown,
        subjectUserId: body.userId,
      };
    },
    async apply(client, payload, { change }) {
      const body = openBank<CreateBody>(ctx, payload);
      const row = await recordOnce(ctx, client, change.proposed_by, body);
      const email = await repo.emailOf(client, row.user_id);
      if (email) await mailLedgerChange(ctx, client, email, 'recorded', row, body.reason);
      return { transactionId: row.id };
    },
  });
  return [kind(TRANSACTION_CREATE, false), kind(TRANSACTION_CREDIT, true)];
}

/**
 * Proposes an Add: checked now as its approval will check it, nothing recorded. A retry
 * with the same Idempotency-Key gets the same proposal back.
 */
export async function proposeTransaction(
  ctx: AdminTransactionsContext,
  actor: StaffActor,
  body: TCreateAdminTransaction,
  idempotencyKey: string | undefined,
): Promise<TPendingChange> {
  // A retry of the same request carries a new code: the key stands for the rest.
  const hash = requestHash(CREATE_ROUTE, withoutStepUp(body));
  const answer = await withTransaction(ctx.pool, (client) =>
    runOnce(client, { userId: actor.userId, key: idempotencyKey, hash }, async () => {
      const { stepUp, ...fields } = body;
      const pending = await ctx.changes.proposeIn(
        client,
        actor,
        credits(body) ? TRANSACTION_CREDIT : TRANSACTION_CREATE,
        sealBank(ctx, fields),
      );
      await confirmStepUp(ctx, client, actor, stepUp);
      return { status: 202, body: pending };
    }),
  );
  return answer.body;
}
