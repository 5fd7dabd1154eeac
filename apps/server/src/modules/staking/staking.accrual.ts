/**
 * Staking arithmetic as pure functions (product.md M1, M2), exact in wei.
 *
 * - Reward per second = ETH balance × daily rate / 86 400. The rate is a decimal string
 *   (the `staking_daily_rate` setting) and is applied as an integer over a power of ten,
 *   so no float ever touches an amount.
 * - Accrual is checkpointed: at every ETH balance change the accrual of the balance held
 *   since the previous checkpoint is added to `accrued_pending`, rounded DOWN to the wei.
 *   Each checkpoint may therefore drop less than 1 wei (at most one per balance change
 *   and one per credit); rounding down means we never pay what was not earned.
 * - Cycles are consecutive 24-hour windows from the cycle start, the later of the program
 *   start and the user's registration. A cycle's accrual is credited when it ends.
 */

export const DAY_MS = 86_400_000;

/** The daily rate as digits / 10^scale, e.g. '0.0001' is { digits: 1n, scale: 4 }. */
export type Rate = { digits: bigint; scale: number };

/** A rate we store in numeric(20, 18): at most 18 decimals and below 100. */
const RATE_PATTERN = /^(\d{1,2})(?:\.(\d{1,18}))?$/;

/**
 * Parses the daily rate setting. An unreadable rate is an operator error that must not
 * silently pay nothing or something else, so it throws.
 */
export function parseRate(text: string): Rate {
  const match = RATE_PATTERN.exec(text.trim());
  if (!match) throw new RangeError(`staking_daily_rate is not a rate: ${JSON.stringify(text)}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  return { digits: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

/** The rate as a plain decimal string ('0.0001'), for the wire and the database. */
export function formatRate(rate: Rate): string {
  if (rate.scale === 0) return rate.digits.toString();
  const text = rate.digits.toString().padStart(rate.scale + 1, '0');
  return `${text.slice(0, -rate.scale)}.${text.slice(-rate.scale)}`;
}

export function sameRate(a: Rate, b: Rate): boolean {
  return a.digits === b.digits && a.scale === b.scale;
}

/** Wei earned by `balance` wei at `rate` over `ms` milliseconds, rounded down. */
export function accrualWei(balance: bigint, rate: Rate, ms: number): bigint {
  if (balance <= 0n || ms <= 0) return 0n;
  return (
    (balance * rate.digits * BigInt(Math.floor(ms))) / (10n ** BigInt(rate.scale) * BigInt(DAY_MS))
  );
}

/** Wei earned per day at the balance (the board's "daily earnings"), rounded down. */
export function dailyWei(balance: bigint, rate: Rate): bigint {
  return accrualWei(balance, rate, DAY_MS);
}

/** Wei earned per second, rounded down: the board ticks the pending amount with it. */
export function perSecondWei(balance: bigint, rate: Rate): bigint {
  return accrualWei(balance, rate, 1000);
}

/** The first cycle's start: the later of the program start and the registration. */
export function firstCycleStart(programStart: Date, registeredAt: Date): Date {
  return new Date(Math.max(programStart.getTime(), registeredAt.getTime()));
}

/** The start of the cycle, on the grid that starts at `cycleStart`, that contains `at`. */
export function cycleContaining(cycleStart: Date, at: Date): Date {
  const elapsed = at.getTime() - cycleStart.getTime();
  if (elapsed < DAY_MS) return cycleStart;
  return new Date(cycleStart.getTime() + Math.floor(elapsed / DAY_MS) * DAY_MS);
}

export type AccrualState = {
  /** Wei accrued up to `lastCheckpointAt` and not yet credited. */
  pending: bigint;
  lastCheckpointAt: Date;
  /** The rate accruing since `lastCheckpointAt`. */
  rate: Rate;
};

/**
 * The state after a checkpoint at `at`: the accrual of `balance` (held since the last
 * checkpoint) at the stored rate is added, and from now on the current rate applies.
 * A checkpoint never moves backwards: a clock behind the last checkpoint (another
 * instance's, or a credit dated at its cycle's end) adds nothing and keeps the later time.
 */
export function checkpointAt(
  state: AccrualState,
  balance: bigint,
  at: Date,
  currentRate: Rate,
): AccrualState {
  const ms = at.getTime() - state.lastCheckpointAt.getTime();
  return {
    pending: state.pending + accrualWei(balance, state.rate, ms),
    lastCheckpointAt: ms > 0 ? at : state.lastCheckpointAt,
    rate: currentRate,
  };
}
