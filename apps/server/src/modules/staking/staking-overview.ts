import { AppError } from '@server/lib/app-error';
import {
  type AccrualState,
  checkpointAt,
  DAY_MS,
  dailyWei,
  firstCycleStart,
  perSecondWei,
  type Rate,
} from './staking.accrual';
import { stakingRepository as repo } from './staking.repository';
import { accrualStateOf, type StakingContext, settingsFrom, ZERO_RATE } from './staking-context';

/** "Active stakers" is a program figure polled every 2 s by every board: a few seconds old is fine. */
const ACTIVE_STAKERS_TTL_MS = 10_000;

export type StakingStatus = 'active' | 'no_eth' | 'not_started';

/** The staking board's figures for one customer, exact (wei, instants). */
export type StakingOverview = {
  ethBalance: bigint;
  status: StakingStatus;
  dailyRate: Rate;
  programStart: Date;
  activeStakers: number;
  creditedTotal: bigint;
  pendingAccrued: bigint;
  accruingPerSecond: bigint;
  dailyEarnings: bigint;
  cycleStartAt: Date | null;
  nextCreditAt: Date | null;
  stakingSince: Date | null;
  asOf: Date;
};

async function countActiveStakers(ctx: StakingContext, now: Date): Promise<number> {
  const cached = ctx.activeStakers;
  if (cached && now.getTime() < cached.until) return cached.value;
  const value = await repo.countActiveStakers(ctx.pool);
  ctx.activeStakers = { value, until: now.getTime() + ACTIVE_STAKERS_TTL_MS };
  return value;
}

/** The board's figures as of now: computed from the last checkpoint, nothing written. */
export async function stakingOverview(
  ctx: StakingContext,
  userId: string,
): Promise<StakingOverview> {
  const now = ctx.clock();
  const row = await repo.overview(ctx.pool, userId);
  if (!row) throw new AppError('NOT_FOUND', 'Account not found.');
  const settings = settingsFrom(ctx, row);
  const balance = row.eth_balance;
  const started = now.getTime() >= settings.programStart.getTime();
  const status: StakingStatus = !started ? 'not_started' : balance > 0n ? 'active' : 'no_eth';

  const state: AccrualState | null = row.state ? accrualStateOf(row.state) : null;
  // What the next checkpoint will find: the stored rate runs until then.
  const pending = state ? checkpointAt(state, balance, now, state.rate).pending : 0n;
  const accruingRate = state?.rate ?? settings.rate ?? ZERO_RATE;
  const accruing = status === 'active' ? balance : 0n;
  // A credit is coming only while something accrues or is owed.
  const cycleStartAt =
    row.state && (balance > 0n || pending > 0n) ? row.state.cycle_start_at : null;
  const first = firstCycleStart(settings.programStart, row.registered_at);
  const stakingSince = row.state?.staking_since ?? null;

  return {
    ethBalance: balance,
    status,
    dailyRate: settings.rate ?? accruingRate,
    programStart: settings.programStart,
    activeStakers: started ? await countActiveStakers(ctx, now) : 0,
    creditedTotal: row.credited_total,
    pendingAccrued: pending,
    accruingPerSecond: perSecondWei(accruing, accruingRate),
    dailyEarnings: dailyWei(accruing, accruingRate),
    cycleStartAt,
    nextCreditAt: cycleStartAt ? new Date(cycleStartAt.getTime() + DAY_MS) : null,
    stakingSince:
      status === 'active' && stakingSince
        ? new Date(Math.max(stakingSince.getTime(), first.getTime()))
        : null,
    asOf: now,
  };
}
