import { fromMinor, type TAnyAssetId } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { ledgerRepository as repo, type WalletRow } from './ledger.repository';
import { assertFits, insufficientBalance, minor } from './ledger-rules';

/**
 * Called inside the transaction, with the wallet locked, before an ETH balance changes:
 * staking accrual is checkpointed on the balance that was held until now.
 */
export type BalanceChangeHook = (
  client: TxClient,
  wallet: WalletRow,
  balanceBefore: bigint,
) => Promise<void>;

/**
 * Called inside the transaction after a customer's ledger rows changed: announces it (a
 * NOTIFY sent only if the transaction commits), so the customer's screens refresh live.
 */
export type LedgerChangeHook = (client: TxClient, userIds: string[]) => Promise<void>;

/**
 * What every use case of the ledger shares, given once to `createLedger`: the hooks around
 * a balance change.
 */
export type LedgerContext = {
  beforeBalanceChange?: BalanceChangeHook;
  afterChange?: LedgerChangeHook;
};

/**
 * A wallet locked in the caller's transaction, with what is available in it: a request
 * checks its funds on it and then posts on it, so the balance checked is the balance the
 * ledger changes, with one lock.
 */
export type LockedWallet = {
  readonly row: WalletRow;
  readonly assetId: TAnyAssetId;
  /** balance − held, in minor units. */
  readonly available: bigint;
};

/** Announces a changed row's customer, and gives the row back. */
export async function changed<R extends { user_id: string }>(
  ctx: LedgerContext,
  client: TxClient,
  row: R,
): Promise<R> {
  await ctx.afterChange?.(client, [row.user_id]);
  return row;
}

/**
 * Applies an effect to a locked wallet, refusing anything that would leave less than
 * nothing available or more than a wallet holds.
 */
export async function applyDelta(
  ctx: LedgerContext,
  client: TxClient,
  wallet: WalletRow,
  assetId: TAnyAssetId,
  delta: { balance: bigint; held: bigint },
) {
  if (delta.balance === 0n && delta.held === 0n) return;
  const balance = minor(wallet.balance_crypto, assetId);
  const held = minor(wallet.held, assetId);
  const nextBalance = balance + delta.balance;
  const nextHeld = held + delta.held;
  if (nextBalance < 0n || nextHeld < 0n || nextBalance - nextHeld < 0n) {
    throw insufficientBalance(assetId, balance - held);
  }
  assertFits(assetId, nextBalance);
  if (delta.balance !== 0n) await ctx.beforeBalanceChange?.(client, wallet, balance);
  await repo.setWalletAmounts(
    client,
    wallet.id,
    fromMinor(assetId, nextBalance),
    fromMinor(assetId, nextHeld),
  );
}
