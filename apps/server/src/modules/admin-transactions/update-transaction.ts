import {
  ADMIN_TX_MSG,
  ASSETS,
  assetById,
  normalizeTxHash,
  parseAmount,
  type TAdminTransaction,
  type TUpdateAdminTransaction,
  validateAddress,
  ZAnyAssetId,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Revision, TransactionRow } from '../ledger';
import { usdShown } from '../ledger';
import {
  type AdminTransactionRow,
  adminTransactionsRepository as repo,
} from './admin-transactions.repository';
import {
  type Actor,
  type AdminTransactionsContext,
  audited,
  bankFacts,
  confirmStepUp,
  saveBank,
  view,
} from './admin-transactions-context';
import {
  ADMIN_TYPES,
  addressFor,
  auditView,
  audOf,
  DUPLICATE_DEPOSIT,
  finalRowMessage,
  isDuplicateDeposit,
  isFinalRow,
  PAYOUT_TYPES,
  referenceFor,
  sameFigure,
} from './admin-transactions-rules';

/**
 * What an Edit may not do, judged on the locked row: touch final history (a completed or
 * rejected payout, an adjustment, a staking reward), turn a payout into something else or
 * anything into a payout, or move a payout's status (Complete and Reject do that: they
 * tell the customer and check four eyes).
 */
function refuseEdit(current: TransactionRow, body: TUpdateAdminTransaction): void {
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
  body: TUpdateAdminTransaction,
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
  body: TUpdateAdminTransaction,
  actor: Actor,
): Revision {
  const transactionDate = new Date(body.transactionDate);
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
        updatedBy: actor.id,
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
      updatedBy: actor.id,
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
    updatedBy: actor.id,
  };
}

/**
 * An edit re-applies the row's ledger effect (old reversed, new applied) in one
 * database transaction; a status change is an edit of the status alone. Final history
 * and a payout's type and status are refused first (`refuseEdit`), on the locked row.
 */
export async function updateTransaction(
  ctx: AdminTransactionsContext,
  actor: Actor,
  id: string,
  body: TUpdateAdminTransaction,
): Promise<TAdminTransaction> {
  try {
    return await withTransaction(ctx.pool, async (client) => {
      const current = await repo.findById(client, id, true);
      if (!current) throw new AppError('NOT_FOUND', 'Transaction not found.');
      refuseEdit(current, body);
      await ctx.payouts.assertNotApproved(client, current);
      const revision = revisionOf(current, body, actor);
      refuseRedirect(ctx, current, body);
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
      const before = auditView(change.before, bankFacts(ctx, current));
      const after = await audited(ctx, client, change.after);
      // Who edited is in every edit; a status change is one that changes nothing else.
      const rest = (v: typeof before) => JSON.stringify({ ...v, status: null, editorIds: null });
      await confirmStepUp(ctx, client, actor, body.stepUp);
      await ctx.audit.record(client, {
        actorId: actor.id,
        action: rest(before) === rest(after) ? 'transaction.status' : 'transaction.update',
        targetType: 'transaction',
        targetId: id,
        targetUserId: change.after.user_id,
        before,
        after,
        reason: body.reason,
        ip: actor.ip,
      });
      return view(ctx, client, id);
    });
  } catch (err) {
    if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
    if (isFinalRow(err)) throw new AppError('CONFLICT', ADMIN_TX_MSG.finalRow);
    throw err;
  }
}
