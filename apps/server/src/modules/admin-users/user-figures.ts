import {
  centsToString,
  DEFAULT_STAKING_PROGRAM_START,
  type TAdminStakingTime,
  type TAdminUserFigures,
  usdCents,
} from '@coffer/shared';
import type { PriceBook } from '../prices';
import type { FiguresRow } from './admin-users.repository';
import type { AdminUsersContext } from './admin-users-context';

/** The program start setting; the default when it is unset or unreadable. */
function programStartOf(value: string | undefined): Date {
  const parsed = value ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime())
    ? parsed
    : new Date(DEFAULT_STAKING_PROGRAM_START);
}

/**
 * staking display: no ETH → 'No ETH'; start is the later of the program start
 * and the registration; before it 'Staking starts soon'; after it the elapsed time (the
 * browser counts it from `since`).
 */
export function stakingTimeOf(
  ethMinor: bigint,
  registeredAt: Date,
  programStart: Date,
  now: Date,
): TAdminStakingTime {
  if (ethMinor <= 0n) return { state: 'no_eth' };
  const start = registeredAt > programStart ? registeredAt : programStart;
  if (now < start) return { state: 'starts_soon', startsAt: start.toISOString() };
  return { state: 'running', since: start.toISOString() };
}
async function programStart(ctx: AdminUsersContext): Promise<Date> {
  return programStartOf((await ctx.settings.all()).get('staking_program_start'));
}

/** Portfolio (every wallet at the live price, stablecoins at 1) and ETH staking in USD. */
function figuresOf(
  rows: FiguresRow[],
  book: PriceBook,
  start: Date,
  at: Date,
): TAdminUserFigures[] {
  return rows.map((r) => {
    // In cents until shown: a page values about a hundred wallets on every poll.
    let portfolioCents = 0n;
    let ethMinor = 0n;
    let stakingCents = 0n;
    for (const { asset, balance } of r.wallets) {
      const cents = usdCents(balance, asset.decimals, book.quotes[asset.id].priceUsd);
      portfolioCents += cents;
      if (asset.id === 'ETH') {
        ethMinor = balance;
        stakingCents = cents;
      }
    }
    return {
      id: r.id,
      portfolioUsd: centsToString(portfolioCents),
      stakingUsd: centsToString(stakingCents),
      stakingTime: stakingTimeOf(ethMinor, r.registration_date, start, at),
    };
  });
}

export async function figuresFor(
  ctx: AdminUsersContext,
  rows: FiguresRow[],
): Promise<TAdminUserFigures[]> {
  return figuresOf(rows, ctx.prices.current(), await programStart(ctx), ctx.clock());
}
