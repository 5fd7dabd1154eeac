import {
  ADMIN_TX_MSG,
  ASSETS,
  assetById,
  normalizeTxHash,
  parseAmount,
  type TPendingChange,
  type TUpdateAdminTransaction,
  validateAddress,
  ZAnyAssetId,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { Revision, TransactionRow } from '../ledger';
import { usdShown } from '../ledger';
import type { ChangeKind, StaffActor } from '../staff-changes';
import {
  type AdminTransactionRow,
  adminTransactionsRepository as repo,
} from './admin-transactions.repository';
import {
  type AdminTransactionsContext,
  bankFacts,
  saveBank,
  trial,
} from './admin-transactions-context';
import {
  ADMIN_TYPES,
  addressFor,
  audOf,
  DUPLICATE_DEPOSIT,
  finalRowMessage,
  isDuplicateDeposit,
  isFinalRow,
  PAYOUT_TYPES,
  referenceFor,
  sameFigure,
  staffPayoutDate,
} from './admin-transactions-rules';
import { mailLedgerChange } from './customer-mail';
import { openBank, rowWords, type Sealed, sealBank, shownPair } from './transaction-change-view';

/**
 * What an Edit may not do, judged on the locked row: touch final history (a completed or
 * rejected payout, an adjustment, a staking reward), turn a payout into something else or
 * anything into a payout, or move a payout's status (Complete and Reject do that: they
 * tell the customer and check four eyes).
 */
function refuseEdit(current: TransactionRow, body: Omit<TUpdateAdminTransaction, 'stepUp'>): void {
  const final = finalRowMessage(current);
  if (final) throw new AppError('CONFLICT', final);
  if (!ADMIN_TYPES.has(current.transaction_type)) {
    throw new AppError('CONFLICT', ADMIN_TX_MSG.stakingRewardNoEdit);
  }
  const wasPayout = PAYOUT_TYPES.has(current.transaction_type);
  if ((wasPayout || PAYOUT_TYPES.has(body.type)) && body.type !== current.transaction_type) {
    throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutTypeLocked);
  }
  if (wasPayout && body.status !== current.status) {
    throw new AppError('CONFLICT', ADMIN_TX_MSG.payoutStatusByEdit);
  }
}

/**
 * A payout the customer asked for goes where, in what and for how much they confirmed
 * with their own second factor: staff complete or reject it, never redirect it (an edit
 * of the destination would be paid by the next admin without the customer's word).
 */
function refuseRedirect(
  ctx: AdminTransactionsContext,
  current: AdminTransactionRow,
  body: Omit<TUpdateAdminTransaction, 'stepUp'>,
): void {
  if (!PAYOUT_TYPES.has(current.transaction_type) || current.created_by !== current.user_id) {
    return;
  }
  const sameUsd =
    sameFigure(body.usdAmount, usdShown(current)) || sameFigure(body.usdAmount, current.usd_amount);
  const sameAud = body.audAmount === '' || sameFigure(body.audAmount, current.aud_amount);
  let same = sameUsd && sameAud;
  if (current.transaction_type === 'withdrawal') {
    const address = validateAddress(current.asset_id, body.withdrawalAddress);
    same &&=
      body.assetId === current.asset_id &&
      sameFigure(body.cryptoAmount, current.crypto_amount) &&
      address.ok &&
      address.address === current.withdrawal_address;
  } else {
    const bank = bankFacts(ctx, current);
    same &&=
      bank !== null &&
      body.bank !== undefined &&
      body.bank.accountName === bank.accountName &&
      body.bank.accountNumber === bank.accountNumber &&
      body.bank.bsbNumber === bank.bsbNumber &&
      body.bank.currency === bank.currency;
  }
  if (!same) throw new AppError('CONFLICT', ADMIN_TX_MSG.customerPayoutLocked);
}

/**
 * What an Edit leaves the row as. An empty hash keeps the stored one (an edit never drops
 * a payout's reference); a typed one must be a hash of the row's network. A bank payout
 * funded from the customer's crypto (product.md M11) keeps its hold and the figures it
 * was converted from: only its account and date may change.
 */
function revisionOf(
  current: AdminTransactionRow,
  body: Omit<TUpdateAdminTransaction, 'stepUp'>,
  by: string,
): Revision {
  const transactionDate = staffPayoutDate(
    body.type,
    PAYOUT_TYPES.has(current.transaction_type) ? current.transaction_date : null,
    body.transactionDate,
  );
  const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
  if (body.type === 'bank_transfer') {
    const transactionHash =
      body.transactionHash === ''
        ? current.transaction_hash
        : referenceFor(true, current.asset_id, body.transactionHash);
    const funding = current.direction === 'none' ? undefined : assetById(current.asset_id);
    if (funding) {
      const sameUsd =
        sameFigure(body.usdAmount, usdShown(current)) ||
        sameFigure(body.usdAmount, current.usd_amount);
      const sameAud = body.audAmount === '' || sameFigure(body.audAmount, current.aud_amount);
      if (!sameUsd || !sameAud) {
        throw new AppError('CONFLICT', ADMIN_TX_MSG.fundedPayoutAmounts);
      }
      return {
        type: 'bank_transfer',
        direction: current.direction,
        assetId: funding.id,
        amount: parseAmount(current.crypto_amount, funding.decimals),
        usdAmount: current.usd_amount,
        audAmount: current.aud_amount,
        currency: current.currency,
        status: body.status,
        transactionDate,
        withdrawalAddress: current.withdrawal_address,
        transactionHash,
        updatedBy: by,
      };
    }
    return {
      type: 'bank_transfer',
      direction: 'none',
      assetId: body.bank?.currency ?? current.asset_id,
      amount: 0n,
      usdAmount: body.usdAmount,
      audAmount,
      currency: body.bank?.currency ?? 'AUD',
      status: body.status,
      transactionDate,
      withdrawalAddress: null,
      transactionHash,
      updatedBy: by,
    };
  }
  const asset = ASSETS[ZAnyAssetId.parse(body.assetId)];
  let transactionHash = referenceFor(false, asset.id, body.transactionHash);
  if (transactionHash === null && current.transaction_hash !== null) {
    // Kept, in the form of the row's network now (the asset may have changed).
    const kept = normalizeTxHash(asset.id, current.transaction_hash);
    transactionHash = kept.ok ? kept.value : current.transaction_hash;
  }
  const credit = body.type === 'deposit' || body.type === 'buy';
  return {
    type: body.type,
    direction: credit ? 'credit' : 'debit',
    assetId: asset.id,
    amount: parseAmount(body.cryptoAmount, asset.decimals),
    usdAmount: body.usdAmount,
    audAmount,
    currency: current.currency ?? 'USD',
    status: body.status,
    transactionDate,
    withdrawalAddress: addressFor(body.type, asset.id, body.withdrawalAddress),
    transactionHash,
    updatedBy: by,
  };
}

/**
 * A payout staff raise counts against the customer's daily limit as much as it grows the
 * day's payouts: the row's old figure, if the day counts it already, is not counted twice.
 */
async function withinDailyLimit(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  current: AdminTransactionRow,
  revision: Revision,
): Promise<void> {
  if (!PAYOUT_TYPES.has(revision.type) || revision.status === 'failed') return;
  const counted =
    current.status !== 'failed' && current.transaction_date.getTime() > Date.now() - 24 * 3_600_000;
  const crypto = revision.direction !== 'none' ? assetById(revision.assetId) : undefined;
  await ctx.withdrawals.assertStaffPayoutWithinLimit(
    client,
    {
      userId: current.user_id,
      usdAmount: revision.usdAmount ?? '0',
      crypto:
        crypto && revision.type === 'withdrawal'
          ? { assetId: crypto.id, amount: revision.amount }
          : null,
    },
    counted ? (current.usd_amount ?? '0') : '0',
  );
}

/**
 * An edit re-applies the row's ledger effect (old reversed, new applied) in the caller's
 * transaction, as the staff member who proposed it (`by`): the approval's write, and the
 * proposal's trial of it. Final history (a completed deposit, buy or sell among it) and a
 * payout's type and status are refused first (`refuseEdit`), on the locked row.
 */
async function revise(
  ctx: AdminTransactionsContext,
  client: pg.PoolClient,
  by: string,
  id: string,
  body: Omit<TUpdateAdminTransaction, 'stepUp'>,
) {
  const current = await repo.findById(client, id, true);
  if (!current) throw new AppError('NOT_FOUND', 'Transaction not found.');
  refuseEdit(current, body);
  await ctx.payouts.assertNotApproved(client, current);
  const revision = revisionOf(current, body, by);
  refuseRedirect(ctx, current, body);
  await withinDailyLimit(ctx, client, current, revision);
  try {
    const change = await ctx.ledger.revise(client, id, revision);
    if (body.type === 'bank_transfer') {
      const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
      // A funded payout's fiat figure is what its hold was converted from: it stays.
      const keep =
        current.direction !== 'none' && current.amount_fiat !== null
          ? { amountFiat: current.amount_fiat, currency: current.bank_currency ?? 'AUD' }
          : undefined;
      await saveBank(ctx, client, id, body, audAmount, keep);
    }
    const bankAfter =
      change.after.transaction_type === 'bank_transfer'
        ? bankFacts(ctx, await repo.bankAccountOf(client, id))
        : null;
    return { change, bankBefore: bankFacts(ctx, current), bankAfter, email: current.email };
  } catch (err) {
    if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
    if (isFinalRow(err)) throw new AppError('CONFLICT', ADMIN_TX_MSG.finalRow);
    throw err;
  }
}

export const TRANSACTION_UPDATE = 'transaction.update';

/** An Edit as its proposal stores it: the row, the form without the step-up, the bank sealed. */
type UpdateBody = Omit<TUpdateAdminTransaction, 'stepUp'>;
export type UpdatePayload = { id: string; body: Sealed<UpdateBody> };

/**
 * Editing a ledger row takes two people (decision 0036): proposed (202, nothing changed),
 * applied when another staff member approves it, checked again then. Any edit can raise a
 * balance (a pending deposit completed, a debit made smaller), so it counts as funding
 * the customer (`fundsSubject`). A newer proposed edit of the row replaces a pending one.
 */
export function updateTransactionKind(ctx: AdminTransactionsContext): ChangeKind<UpdatePayload> {
  return {
    kind: TRANSACTION_UPDATE,
    fundsSubject: true,
    auditAction: 'transaction.update',
    async describe(client, payload, proposer) {
      const body = openBank<UpdateBody>(ctx, payload.body);
      const shown = await trial(client, async () => {
        const done = await revise(ctx, client, proposer.userId, payload.id, body);
        const { change, bankBefore, bankAfter } = done;
        return {
          ...shownPair(ctx, change.before, bankBefore, change.after, bankAfter),
          email: done.email,
          words: rowWords(change.before),
          userId: change.before.user_id,
        };
      });
      return {
        summary: `Edit ${shown.words} of ${shown.email} (${payload.id}): ${body.reason}`,
        before: shown.before,
        after: shown.after,
        subjectUserId: shown.userId,
        targetKey: payload.id,
      };
    },
    async apply(client, payload, { change }) {
      const body = openBank<UpdateBody>(ctx, payload.body);
      const done = await revise(ctx, client, change.proposed_by, payload.id, body);
      await mailLedgerChange(ctx, client, done.email, 'changed', done.change.after, body.reason);
      return { transactionId: payload.id };
    },
  };
}

/** Proposes an Edit, with the proposer's step-up after every check. */
export function proposeUpdate(
  ctx: AdminTransactionsContext,
  actor: StaffActor,
  id: string,
  body: TUpdateAdminTransaction,
): Promise<TPendingChange> {
  const { stepUp, ...fields } = body;
  return ctx.changes.propose(
    actor,
    TRANSACTION_UPDATE,
    { id, body: sealBank(ctx, fields) },
    stepUp,
  );
}
