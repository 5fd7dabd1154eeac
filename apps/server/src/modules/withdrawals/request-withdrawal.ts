import {
  ASSETS,
  mulPrice,
  parseAmount,
  type TAssetId,
  type TCreateWithdrawalRequest,
  type TTransaction,
  validateAddress,
  withoutStepUp,
  ZAssetId,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { insufficientBalance, presentTransaction, requestHash, runOnce } from '../ledger';
import type { StepUpSubject } from '../step-up';
import type { WithdrawalsContext } from './withdrawals-context';

const CREATE_ROUTE = 'POST /api/withdrawals';

/** Parses the asset id the request schema already checked, as the catalogue's type. */
function assetOf(assetId: string): TAssetId {
  const parsed = ZAssetId.safeParse(assetId);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'Please select a cryptocurrency');
  return parsed.data;
}

/**
 * A customer's withdrawal request (product.md M6), checked in order
 * after the schema: settings, funds (amount + network fee against the available
 * balance), the address, the daily limit, and last the fresh second factor (step-up), so
 * a refused request never costs the customer a code. Then one ledger row, pending,
 * holding amount + fee, all in one database transaction with the customer and the wallet
 * locked; the code is used up only if that commits.
 */
export async function requestWithdrawal(
  ctx: WithdrawalsContext,
  s: StepUpSubject,
  body: TCreateWithdrawalRequest,
  idempotencyKey: string | undefined,
  who: Client,
): Promise<TTransaction> {
  const { userId } = s;
  // Read before the transaction: inside it, a second pool connection could wait on
  // connections that requests queued behind this customer's lock are holding.
  const settings = await ctx.controls.current();
  // A retry of the same request carries a new code: the key stands for the rest.
  const hash = requestHash(CREATE_ROUTE, withoutStepUp(body));
  const answer = await withTransaction(ctx.pool, (client) =>
    runOnce(client, { userId, key: idempotencyKey, hash }, async () => {
      ctx.controls.assertCustomerPayoutsOpen(settings);
      await ctx.securityHold.assertClear(client, userId);
      const asset = ASSETS[assetOf(body.assetId)];
      const amount = parseAmount(body.amount, asset.decimals);
      const fee = parseAmount(asset.networkFee, asset.decimals);

      await ctx.controls.lockCustomer(client, userId);
      const wallet = await ctx.ledger.lockWallet(client, userId, asset.id);
      if (amount + fee > wallet.available) throw insufficientBalance(asset.id, wallet.available);

      const address = validateAddress(asset.id, body.address);
      if (!address.ok) throw new AppError('VALIDATION_FAILED', address.message);

      const usdAmount = mulPrice(
        amount,
        asset.decimals,
        ctx.prices.current().quotes[asset.id].priceUsd,
      );
      await ctx.controls.assertWithinDailyLimit(client, settings, userId, usdAmount);
      await ctx.stepUp.confirm(client, s, body.stepUp, who);

      const row = await ctx.ledger.post(
        client,
        {
          userId,
          assetId: asset.id,
          type: 'withdrawal',
          direction: 'debit',
          amount,
          fee,
          status: 'pending',
          usdAmount,
          withdrawalAddress: address.address,
          memo: body.memo ? body.memo : null,
          createdBy: userId,
        },
        { wallet },
      );
      return { status: 200, body: presentTransaction(row) };
    }),
  );
  return answer.body;
}
