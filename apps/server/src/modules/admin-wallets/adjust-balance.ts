import {
  ADMIN_MAX_WHOLE_DIGITS,
  ADMIN_WALLET_MSG,
  AmountError,
  amountMessages,
  balanceBelowHeldText,
  balanceMovedText,
  formatAmount,
  fromMinor,
  mulPrice,
  parseAmount,
  type TAdjustWalletBalanceRequest,
  type TAsset,
  type TProposedResponse,
  withoutStepUp,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { requestHash, runOnce } from '../ledger';
import type { ChangeKind } from '../staff-changes';
import type { AdminWallet } from './admin-wallets.repository';
import {
  type Actor,
  type AdminWalletsContext,
  emailOf,
  findWallet,
  lockWallet,
} from './admin-wallets-context';
import { adjustmentMail, walletTitle } from './change-mails';

/** The two-person change a balance edit is (decision 0036). */
export const BALANCE_CHANGE = 'wallet.balance.adjust';

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

/** A balance edit as the change stores it: the balance it was proposed against, and the target. */
export type BalancePayload = {
  walletId: string;
  /**
   * The balance when proposed, in the asset's decimal form, filled in by `describe`: the
   * approval refuses if it moved (or is missing).
   */
  expectedBalance?: string;
  newBalance: string;
  reason: string;
};

/** The adjustment a target balance needs against the wallet as it is, checked as at proposal. */
function adjustmentFor(
  ctx: AdminWalletsContext,
  wallet: AdminWallet,
  newBalance: string,
  belowHeld: 'VALIDATION_FAILED' | 'CONFLICT',
) {
  const { asset, balance, held } = wallet;
  const wanted = parseNewBalance(newBalance, asset);
  if (wanted < held) {
    throw new AppError(
      belowHeld,
      balanceBelowHeldText(formatAmount(held, asset.decimals), asset.symbol),
    );
  }
  const difference = wanted - balance;
  if (difference === 0n) throw new AppError('VALIDATION_FAILED', ADMIN_WALLET_MSG.balanceUnchanged);
  const amount = difference > 0n ? difference : -difference;
  const direction: 'credit' | 'debit' = difference > 0n ? 'credit' : 'debit';
  return { wanted, amount, direction, usdAmount: usdValueOf(ctx, amount, asset) };
}

/**
 * A balance "edit" (product.md M7), two people (decision 0036): proposed by one staff member
 * (validated then: the amount, the hold, the USD value; nothing moves), posted by the ledger
 * as one completed `adjustment` for the difference when another approves it. A manual credit
 * or debit of a customer (`fundsSubject`): its proposer and approver may not decide that
 * customer's payouts for 30 days.
 *
 * At approval the wallet is locked and must still hold the balance it was proposed against:
 * the approver approves exactly the movement they were shown ("from 0.5 to 3, credit 2.5").
 * Posting the difference to the target instead would let the amount created differ from the
 * one approved (a customer who withdrew in between would be credited more than was asked
 * for), so a moved balance is refused with 409, to be rejected and proposed again. A hold
 * that grew above the target since is refused with 409 too. The ledger row names the
 * proposer as its creator; the approver is in the approval's audit row.
 */
export function balanceChangeKind(ctx: AdminWalletsContext): ChangeKind<BalancePayload> {
  return {
    kind: BALANCE_CHANGE,
    fundsSubject: true,
    auditAction: 'wallet.balance.adjust',
    async describe(client, payload) {
      const wallet = await findWallet(client, payload.walletId);
      const { asset, balance, held } = wallet;
      const { wanted, amount, direction } = adjustmentFor(
        ctx,
        wallet,
        payload.newBalance,
        'VALIDATION_FAILED',
      );
      const email = await emailOf(client, wallet.user_id);
      const from = fromMinor(asset.id, balance);
      const to = fromMinor(asset.id, wanted);
      const moved = fromMinor(asset.id, amount);
      return {
        summary: `Set ${email}'s ${walletTitle(asset)} balance from ${from} to ${to} (${direction} ${moved} ${asset.symbol})`,
        before: {
          walletId: wallet.id,
          assetId: asset.id,
          balance: from,
          held: fromMinor(asset.id, held),
        },
        after: {
          walletId: wallet.id,
          assetId: asset.id,
          balance: to,
          // What pending withdrawals hold is left as it is: said, so the two sides compare.
          held: fromMinor(asset.id, held),
          direction,
          amount: moved,
          reason: payload.reason,
        },
        subjectUserId: wallet.user_id,
        targetKey: wallet.id,
        payload: {
          walletId: wallet.id,
          expectedBalance: from,
          newBalance: to,
          reason: payload.reason,
        },
      };
    },
    async apply(client, payload, { change }) {
      const wallet = await lockWallet(client, payload.walletId);
      const { asset } = wallet;
      const now = fromMinor(asset.id, wallet.balance);
      if (now !== payload.expectedBalance) {
        throw new AppError(
          'CONFLICT',
          balanceMovedText(payload.expectedBalance ?? '?', now, asset.symbol),
        );
      }
      const { wanted, amount, direction, usdAmount } = adjustmentFor(
        ctx,
        wallet,
        payload.newBalance,
        'CONFLICT',
      );
      const row = await ctx.ledger.post(client, {
        userId: wallet.user_id,
        assetId: asset.id,
        type: 'adjustment',
        direction,
        amount,
        status: 'completed',
        usdAmount,
        reason: payload.reason,
        // Who asked for it; who approved it is the approval's audit row.
        createdBy: change.proposed_by,
      });
      const shown = fromMinor(asset.id, amount);
      await ctx.outbox.mail(client, {
        to: await emailOf(client, wallet.user_id),
        ...adjustmentMail({ asset, direction, amount: shown }, payload.reason, ctx.publicUrl),
      });
      return {
        transactionId: row.id,
        direction,
        amount: shown,
        balance: fromMinor(asset.id, wanted),
      };
    },
  };
}

/**
 * POST /api/admin/wallets/:id/balance: proposes the edit (202 `{ pending }`), with the
 * proposer's step-up confirmed after every other check. An Idempotency-Key stands for the
 * request without its step-up: a repeat gets the first answer and proposes nothing more.
 */
export async function proposeBalance(
  ctx: AdminWalletsContext,
  actor: Actor,
  walletId: string,
  body: TAdjustWalletBalanceRequest,
  idempotencyKey: string | undefined,
): Promise<TProposedResponse> {
  const hash = requestHash(BALANCE_ROUTE, { walletId, ...withoutStepUp(body) });
  const answer = await withTransaction(ctx.pool, (client: TxClient) =>
    runOnce(client, { userId: actor.userId, key: idempotencyKey, hash }, async () => {
      const pending = await ctx.changes.proposeIn<BalancePayload>(client, actor, BALANCE_CHANGE, {
        walletId,
        newBalance: body.newBalance,
        reason: body.reason,
      });
      await ctx.stepUp.confirm(client, actor.session, body.stepUp, actor.client);
      return { status: 202, body: { pending } };
    }),
  );
  return answer.body;
}
