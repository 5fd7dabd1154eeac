import {
  ASSETS,
  parseAmount,
  type TAdminTransaction,
  type TCreateAdminTransaction,
  withoutStepUp,
  ZAnyAssetId,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { TransactionRow } from '../ledger';
import { requestHash, runOnce } from '../ledger';
import { adminTransactionsRepository as repo } from './admin-transactions.repository';
import {
  type Actor,
  type AdminTransactionsContext,
  audited,
  confirmStepUp,
  saveBank,
  view,
} from './admin-transactions-context';
import {
  addressFor,
  audOf,
  DUPLICATE_DEPOSIT,
  isDuplicateDeposit,
  referenceFor,
  refuseSelfCompletedPayout,
} from './admin-transactions-rules';

const CREATE_ROUTE = 'POST /api/admin/transactions';
export async function createTransaction(
  ctx: AdminTransactionsContext,
  actor: Actor,
  body: TCreateAdminTransaction,
  idempotencyKey: string | undefined,
): Promise<TAdminTransaction> {
  // A retry of the same request carries a new code: the key stands for the rest.
  const hash = requestHash(CREATE_ROUTE, withoutStepUp(body));
  try {
    const answer = await withTransaction(ctx.pool, (client) =>
      runOnce(client, { userId: actor.id, key: idempotencyKey, hash }, async () => {
        refuseSelfCompletedPayout(body.type, body.status);
        if (!(await repo.customerExists(client, body.userId))) {
          throw new AppError('NOT_FOUND', 'Customer not found.');
        }
        const audAmount = body.audAmount === '' ? audOf(body.usdAmount) : body.audAmount;
        const transactionDate = new Date(body.transactionDate);
        let row: TransactionRow;
        if (body.type === 'bank_transfer') {
          const currency = body.bank?.currency ?? 'AUD';
          row = await ctx.ledger.postFiat(client, {
            userId: body.userId,
            type: 'bank_transfer',
            currency,
            usdAmount: body.usdAmount,
            audAmount,
            status: body.status,
            transactionHash: referenceFor(true, currency, body.transactionHash),
            createdBy: actor.id,
            transactionDate,
          });
          await saveBank(ctx, client, row.id, body, audAmount);
        } else {
          const asset = ASSETS[ZAnyAssetId.parse(body.assetId)];
          const credit = body.type === 'deposit' || body.type === 'buy';
          row = await ctx.ledger.post(client, {
            userId: body.userId,
            assetId: asset.id,
            type: body.type,
            direction: credit ? 'credit' : 'debit',
            amount: parseAmount(body.cryptoAmount, asset.decimals),
            status: body.status,
            usdAmount: body.usdAmount,
            audAmount,
            withdrawalAddress: addressFor(body.type, asset.id, body.withdrawalAddress),
            transactionHash: referenceFor(false, asset.id, body.transactionHash),
            createdBy: actor.id,
            transactionDate,
          });
        }
        await confirmStepUp(ctx, client, actor, body.stepUp);
        await ctx.audit.record(client, {
          actorId: actor.id,
          action: 'transaction.create',
          targetType: 'transaction',
          targetId: row.id,
          targetUserId: row.user_id,
          before: null,
          after: await audited(ctx, client, row),
          reason: body.reason,
          ip: actor.ip,
        });
        return { status: 200, body: await view(ctx, client, row.id) };
      }),
    );
    return answer.body;
  } catch (err) {
    if (isDuplicateDeposit(err)) throw new AppError('CONFLICT', DUPLICATE_DEPOSIT);
    throw err;
  }
}
