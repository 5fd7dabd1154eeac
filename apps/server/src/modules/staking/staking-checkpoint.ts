import { fromMinor } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type { WalletRow } from '../ledger';
import { checkpointAt, cycleContaining, firstCycleStart, formatRate } from './staking.accrual';
import { stakingRepository as repo } from './staking.repository';
import {
  accrualStateOf,
  rateAfter,
  type StakingContext,
  type StakingSettings,
  settingsFrom,
  ZERO_RATE,
} from './staking-context';

/** Checkpoints: the accrual of the ETH held until now, added up at every balance change. */

/** Locks the user's staking row, creating it on the user's first checkpoint. */
async function lockOrCreate(client: TxClient, userId: string, settings: StakingSettings, at: Date) {
  const existing = await repo.lockState(client, userId);
  if (existing) return existing;
  const first = firstCycleStart(settings.programStart, await repo.registeredAt(client, userId));
  await repo.insertState(client, {
    userId,
    // Accrual starts when ETH is first held, never before the cycle start; the cycle is
    // the current window of the grid, so a deposit an hour before it ends earns an hour.
    lastCheckpointAt: new Date(Math.max(first.getTime(), at.getTime())),
    cycleStartAt: cycleContaining(first, at),
    dailyRate: formatRate(settings.rate ?? ZERO_RATE),
  });
  const created = await repo.lockState(client, userId);
  if (!created) throw new Error(`staking row of ${userId} vanished`);
  return created;
}

/**
 * Adds the accrual of `balance`, held since the last checkpoint, up to `at`.
 * `rising` says the balance is about to rise from 0: staking (re)starts at `at`.
 */
export async function checkpointUser(
  ctx: StakingContext,
  client: TxClient,
  userId: string,
  balance: bigint,
  at: Date,
  rising: boolean,
): Promise<void> {
  const settings = settingsFrom(ctx, await repo.readSettings(client));
  const row = await lockOrCreate(client, userId, settings, at);
  const before = accrualStateOf(row);
  const next = checkpointAt(before, balance, at, rateAfter(settings, before.rate, at));
  let cycleStartAt = row.cycle_start_at;
  let stakingSince = row.staking_since;
  if (rising) {
    stakingSince = at;
    // Nothing is owed for the cycles spent without ETH, so the job left them alone:
    // join the grid's current window.
    if (next.pending === 0n) cycleStartAt = cycleContaining(row.cycle_start_at, at);
  }
  await repo.saveState(client, {
    userId,
    accruedPending: fromMinor('ETH', next.pending),
    lastCheckpointAt: next.lastCheckpointAt,
    dailyRate: formatRate(next.rate),
    cycleStartAt,
    stakingSince,
  });
}

/**
 * The ledger's `beforeBalanceChange` hook: called inside the money movement's
 * transaction, with the wallet locked, before its balance changes.
 */
export async function beforeBalanceChange(
  ctx: StakingContext,
  client: TxClient,
  wallet: WalletRow,
  balanceBefore: bigint,
) {
  if (wallet.asset_id !== 'ETH') return;
  const at = ctx.checkpointTime.get(client) ?? ctx.clock();
  await checkpointUser(ctx, client, wallet.user_id, balanceBefore, at, balanceBefore === 0n);
}
