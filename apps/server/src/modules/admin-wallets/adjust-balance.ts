import {
  ADMIN_MAX_WHOLE_DIGITS,
  ADMIN_WALLET_MSG,
  AmountError,
  amountMessages,
  formatAmount,
  fromMinor,
  mulPrice,
  parseAmount,
  type TAdjustWalletBalanceRequest,
  type TAdjustWalletBalanceResponse,
  type TAsset,
  withoutStepUp,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { presentTransaction, requestHash, runOnce } from '../ledger';
import { adminWalletsRepository as repo } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  lockWallet,
  presentWallet,
} from './admin-wallets-context';

const BALANCE_ROUTE = 'POST /api/admin/wallets/:id/balance';

/** The new balance in the asset's minor units, or the message the admin reads. */
function parseNewBalance(value: string, asset: TAsset): bigint {
  const messages = {
    ...amountMessages(asset.decimals, asset.symbol),
    REQUIRED: ADMIN_WALLET_MSG.invalidBalance,
    INVALID: ADMIN_WALLET_MSG.invalidBalance,
    NEGATIVE: ADMIN_WALLET_MSG.invalidBalance,
    TOO_MANY_DECIMALS: `${asset.symbol} balances can have at most ${asset.decimals} decimal places.`,
    TOO_LARGE: ADMIN_WALLET_MSG.balanceTooLarge,
  };
  let minor: bigint;
  try {
    minor = parseAmount(value, asset.decimals, messages);
  } catch (err) {
    if (err instanceof AmountError) throw new AppError('VALIDATION_FAILED', err.message);
    throw err;
  }
  // The column holds 20 whole digits (numeric(38, 18)); a balance near that leaves no room
  // for the next credit, so staff may set 15 at most, as an admin transaction may record.
  if (minor >= 10n ** BigInt(ADMIN_MAX_WHOLE_DIGITS + asset.decimals)) {
    throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceTooLarge);
  }
  return minor;
}

/** The adjustment's USD value, refused when it would not fit a fiat column. */
function usdValueOf(ctx: AdminWalletsContext, amount: bigint, asset: TAsset): string {
  const usd = mulPrice(amount, asset.decimals, ctx.prices.current().quotes[asset.id].priceUsd);
  const whole = usd.split('.')[0] ?? '';
  if (whole.length > ADMIN_MAX_WHOLE_DIGITS) {
    throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceValueTooLarge);
  }
  return usd;
}

/**
 * A balance "edit" (product.md M7): one completed `adjustment`, credit or debit, for the
 * difference between the balance now and the one asked for, posted through the ledger
 * with the wallet locked. A balance below what pending withdrawals hold is refused.
 */
export async function adjustBalance(
  ctx: AdminWalletsContext,
  actor: Actor,
  walletId: string,
  body: TAdjustWalletBalanceRequest,
  idempotencyKey: string | undefined,
): Promise<TAdjustWalletBalanceResponse> {
  // A retry of the same request carries a new code: the key stands for the rest.
  const hash = requestHash(BALANCE_ROUTE, { walletId, ...withoutStepUp(body) });
  const answer = await withTransaction(ctx.pool, (client) =>
    runOnce(client, { userId: actor.adminId, key: idempotencyKey, hash }, async () => {
      const before = await lockWallet(client, walletId);
      const { asset, balance, held } = before;
      const wanted = parseNewBalance(body.newBalance, asset);
      if (wanted < held) {
        const shown = formatAmount(held, asset.decimals);
        throw new AppError(
          'VALIDATION_FAILED',
          `The balance cannot be set below ${shown} ${asset.symbol}: that much is held for pending withdrawals.`,
        );
      }
      const difference = wanted - balance;
      if (difference === 0n) {
        throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceUnchanged);
      }
      const amount = difference > 0n ? difference : -difference;
      const row = await ctx.ledger.post(client, {
        userId: before.user_id,
        assetId: asset.id,
        type: 'adjustment',
        direction: difference > 0n ? 'credit' : 'debit',
        amount,
        status: 'completed',
        usdAmount: usdValueOf(ctx, amount, asset),
        reason: body.reason,
        createdBy: actor.adminId,
      });
      const after = await repo.walletById(client, walletId);
      if (!after) throw new Error(`wallet ${walletId} vanished`);
      await ctx.stepUp.confirm(client, actor.session, body.stepUp, actor.client);
      await ctx.audit.record(client, {
        actorId: actor.adminId,
        action: 'wallet.balance.adjust',
        targetType: 'wallet',
        targetId: walletId,
        targetUserId: before.user_id,
        before: {
          assetId: asset.id,
          balance: fromMinor(asset.id, balance),
          held: fromMinor(asset.id, held),
        },
        after: {
          assetId: asset.id,
          balance: fromMinor(asset.id, wanted),
          transactionId: row.id,
          direction: row.direction,
          amount: fromMinor(asset.id, amount),
        },
        reason: body.reason,
        ip: actor.ip,
      });
      return {
        status: 200,
        body: { wallet: presentWallet(ctx, after), transaction: presentTransaction(row) },
      };
    }),
  );
  return answer.body;
}
