import { DEFAULT_STAKING_DAILY_RATE, DEFAULT_STAKING_PROGRAM_START } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Ledger } from '../ledger';
import { type AccrualState, parseRate, type Rate } from './staking.accrual';
import type { StakingRow, StakingSettingsRow } from './staking.repository';

/** "Now", injectable so tests drive time instead of sleeping. */
export type Clock = () => Date;

export const ZERO_RATE: Rate = { digits: 0n, scale: 0 };

/**
 * What the parts of the staking service share, built once by `createStakingService`: the
 * ledger it credits through, the clock, and the two things it remembers between calls.
 */
export type StakingContext = {
  pool: pg.Pool;
  ledger: Ledger;
  clock: Clock;
  log: Logger;
  /**
   * The instant a checkpoint happens at, per open transaction, when it is not "now": a
   * reward is credited as of its cycle's end, so that the ledger's checkpoint for it (run
   * inside ledger.post) does not accrue the time after the cycle, which a catch-up of
   * several missed cycles pays cycle by cycle.
   */
  checkpointTime: WeakMap<TxClient, Date>;
  /** The board's "active stakers", kept a few seconds (staking-overview.ts). */
  activeStakers: { value: number; until: number } | null;
};

export type StakingSettings = {
  /** Null when the setting cannot be read as a rate (see rateOf). */
  rate: Rate | null;
  /** When the rate setting was last changed: it applies to checkpoints from then on. */
  rateSince: Date;
  programStart: Date;
};

function rateOf(ctx: StakingContext, text: string | null): Rate | null {
  try {
    return parseRate(text ?? DEFAULT_STAKING_DAILY_RATE);
  } catch (err) {
    // A typo in the setting must neither block ETH movements nor change what anyone
    // earns: accrual goes on at each user's stored rate until the setting is fixed.
    ctx.log.error({ err }, 'staking_daily_rate is unreadable; keeping the rates in force');
    return null;
  }
}

export function settingsFrom(ctx: StakingContext, row: StakingSettingsRow): StakingSettings {
  const start = new Date(row.program_start ?? DEFAULT_STAKING_PROGRAM_START);
  if (Number.isNaN(start.getTime())) {
    ctx.log.error(
      { value: row.program_start },
      'staking_program_start is unreadable; using the default',
    );
  }
  return {
    rate: rateOf(ctx, row.daily_rate),
    rateSince: row.rate_updated_at ?? new Date(0),
    programStart: Number.isNaN(start.getTime()) ? new Date(DEFAULT_STAKING_PROGRAM_START) : start,
  };
}

/** The rate that accrues after a checkpoint at `at`: the setting once it is in force. */
export function rateAfter(settings: StakingSettings, stored: Rate, at: Date): Rate {
  return settings.rate && settings.rateSince.getTime() <= at.getTime() ? settings.rate : stored;
}

export function accrualStateOf(row: StakingRow): AccrualState {
  return {
    pending: row.accrued_pending,
    lastCheckpointAt: row.last_checkpoint_at,
    rate: parseRate(row.daily_rate),
  };
}
