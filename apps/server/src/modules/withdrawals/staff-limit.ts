import { ASSETS, formatAmount, mulPrice, parseAmount, type TAnyAssetId } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { WithdrawalsContext } from './withdrawals-context';

/** A payout staff record for a customer, as the daily limit weighs it. */
export type StaffPayout = {
  userId: string;
  /** The USD figure staff typed. */
  usdAmount: string;
  /** A crypto withdrawal's asset and amount in minor units: valued at today's price too. */
  crypto?: { assetId: TAnyAssetId; amount: bigint } | null;
};

const toCents = (usd: string) => parseAmount(usd, 2);
const fromCents = (c: bigint) => formatAmount(c, 2, { minFractionDigits: 2 });

/**
 * The customer's daily limit (`max_daily_withdrawal`, USD) holds for a payout staff record
 * as for one the customer asks for: otherwise one person could record a withdrawal the
 * customer could never make, and the limit would stop only customers. A crypto withdrawal
 * weighs what staff typed or what it is worth at today's price, whichever is more (a
 * figure typed low does not slip under the limit). Run with the customer locked, so that
 * their own requests and staff's cannot both fit into the same remainder; `extraUsd` is
 * the growth of the day's payouts (an edit adds only what it adds).
 */
export async function assertStaffPayoutWithinLimit(
  ctx: WithdrawalsContext,
  client: pg.PoolClient,
  payout: StaffPayout,
  alreadyCountedUsd = '0',
): Promise<void> {
  const settings = await ctx.controls.current();
  await ctx.controls.lockCustomer(client, payout.userId);
  let usd = payout.usdAmount;
  const crypto = payout.crypto;
  const quote = crypto ? ctx.prices.current().quotes[crypto.assetId] : undefined;
  if (crypto && quote) {
    const priced = mulPrice(crypto.amount, ASSETS[crypto.assetId].decimals, quote.priceUsd);
    if (toCents(priced) > toCents(usd)) usd = priced;
  }
  const extra = toCents(usd) - toCents(alreadyCountedUsd);
  if (extra <= 0n) return;
  try {
    await ctx.controls.assertWithinDailyLimit(client, settings, payout.userId, fromCents(extra));
  } catch (err) {
    // The customer's own message, said of the customer: staff read it.
    if (err instanceof AppError && err.code === 'LIMIT_EXCEEDED') {
      throw new AppError(
        'LIMIT_EXCEEDED',
        err.message
          .replace('This withdrawal', 'This payout')
          .replace('your daily limit', "the customer's daily limit")
          .replace('You can withdraw', 'They can withdraw'),
      );
    }
    throw err;
  }
}
