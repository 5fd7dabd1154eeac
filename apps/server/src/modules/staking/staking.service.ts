import {
  DEFAULT_STAKING_DAILY_RATE,
  DEFAULT_STAKING_PROGRAM_START,
  fromMinor,
  toMinor,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Ledger, WalletRow } from '../ledger';
import {
  type AccrualState,
  checkpointAt,
  cycleContaining,
  DAY_MS,
  dailyWei,
  firstCycleStart,
  formatRate,
  parseRate,
  perSecondWei,
  type Rate,
} from './staking.accrual';
import {
  stakingRepository as repo,
  type StakingRow,
  type StakingSettingsRow,
} from './staking.repository';

/** "Now", injectable so tests drive time instead of sleeping. */
export type Clock = () => Date;

const ZERO_RATE: Rate = { digits: 0n, scale: 0 };
/** "Active stakers" is a program figure polled every 2 s by every board: a few seconds old is fine. */
const ACTIVE_STAKERS_TTL_MS = 10_000;
const JOB_BATCH = 200;
const BEFORE_ANY_UUID = '00000000-0000-0000-0000-000000000000';

const wei = (value: string) => toMinor('ETH', value);

type StakingSettings = {
  /** Null when the setting cannot be read as a rate (see rateOf). */
  rate: Rate | null;
  /** When the rate setting was last changed: it applies to checkpoints from then on. */
  rateSince: Date;
  programStart: Date;
};

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

export type CreditRun = {
  /** Cycles paid with a staking_reward transaction. */
  credited: number;
  /** Cycles that ended with nothing accrued: moved on without a transaction. */
  advanced: number;
  /** Users whose credit failed this run (logged; retried next run). */
  failed: number;
};

type Deps = { pool: pg.Pool; ledger: Ledger; clock: Clock; log: Logger };

/**
 * ETH staking (product.md M1, M2): continuous accrual on the ETH actually held,
 * checkpointed by the ledger at every ETH balance change, and credited to the ETH balance
 * as a `staking_reward` transaction at the end of each 24-hour cycle.
 *
 * Rate changes: each staking row keeps the rate accruing since its last checkpoint. A new
 * setting applies from the first checkpoint at or after the setting's `updated_at`; the
 * credit job checkpoints every staker still on an old rate within a run (a minute), so
 * accrual already shown is never repriced.
 */
export function createStakingService({ pool, ledger, clock, log }: Deps) {
  /**
   * The instant a checkpoint happens at, per open transaction, when it is not "now": a
   * reward is credited as of its cycle's end, so that the ledger's checkpoint for it (run
   * inside ledger.post) does not accrue the time after the cycle, which a catch-up of
   * several missed cycles pays cycle by cycle.
   */
  const checkpointTime = new WeakMap<TxClient, Date>();
  let activeStakers: { value: number; until: number } | null = null;

  function rateOf(text: string | null): Rate | null {
    try {
      return parseRate(text ?? DEFAULT_STAKING_DAILY_RATE);
    } catch (err) {
      // A typo in the setting must neither block ETH movements nor change what anyone
      // earns: accrual goes on at each user's stored rate until the setting is fixed.
      log.error({ err }, 'staking_daily_rate is unreadable; keeping the rates in force');
      return null;
    }
  }

  function settingsFrom(row: StakingSettingsRow): StakingSettings {
    const start = new Date(row.program_start ?? DEFAULT_STAKING_PROGRAM_START);
    if (Number.isNaN(start.getTime())) {
      log.error(
        { value: row.program_start },
        'staking_program_start is unreadable; using the default',
      );
    }
    return {
      rate: rateOf(row.daily_rate),
      rateSince: row.rate_updated_at ?? new Date(0),
      programStart: Number.isNaN(start.getTime()) ? new Date(DEFAULT_STAKING_PROGRAM_START) : start,
    };
  }

  /** The rate that accrues after a checkpoint at `at`: the setting once it is in force. */
  function rateAfter(settings: StakingSettings, stored: Rate, at: Date): Rate {
    return settings.rate && settings.rateSince.getTime() <= at.getTime() ? settings.rate : stored;
  }

  function accrualStateOf(row: StakingRow): AccrualState {
    return {
      pending: wei(row.accrued_pending),
      lastCheckpointAt: row.last_checkpoint_at,
      rate: parseRate(row.daily_rate),
    };
  }

  /** Locks the user's staking row, creating it on the user's first checkpoint. */
  async function lockOrCreate(
    client: TxClient,
    userId: string,
    settings: StakingSettings,
    at: Date,
  ) {
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
  async function checkpointUser(
    client: TxClient,
    userId: string,
    balance: bigint,
    at: Date,
    rising: boolean,
  ): Promise<void> {
    const settings = settingsFrom(await repo.readSettings(client));
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
  async function beforeBalanceChange(client: TxClient, wallet: WalletRow, balanceBefore: bigint) {
    if (wallet.asset_id !== 'ETH') return;
    const at = checkpointTime.get(client) ?? clock();
    await checkpointUser(client, wallet.user_id, balanceBefore, at, balanceBefore === 0n);
  }

  async function countActiveStakers(now: Date): Promise<number> {
    if (activeStakers && now.getTime() < activeStakers.until) return activeStakers.value;
    const value = await repo.countActiveStakers(pool);
    activeStakers = { value, until: now.getTime() + ACTIVE_STAKERS_TTL_MS };
    return value;
  }

  /** The board's figures as of now: computed from the last checkpoint, nothing written. */
  async function overview(userId: string): Promise<StakingOverview> {
    const now = clock();
    const row = await repo.overview(pool, userId);
    if (!row) throw new AppError('NOT_FOUND', 'Account not found.');
    const settings = settingsFrom(row);
    const balance = row.eth_balance === null ? 0n : wei(row.eth_balance);
    const started = now.getTime() >= settings.programStart.getTime();
    const status: StakingStatus = !started ? 'not_started' : balance > 0n ? 'active' : 'no_eth';

    const state: AccrualState | null =
      row.state_pending !== null && row.state_last_checkpoint_at && row.state_daily_rate !== null
        ? {
            pending: wei(row.state_pending),
            lastCheckpointAt: row.state_last_checkpoint_at,
            rate: parseRate(row.state_daily_rate),
          }
        : null;
    // What the next checkpoint will find: the stored rate runs until then.
    const pending = state ? checkpointAt(state, balance, now, state.rate).pending : 0n;
    const accruingRate = state?.rate ?? settings.rate ?? ZERO_RATE;
    const accruing = status === 'active' ? balance : 0n;
    // A credit is coming only while something accrues or is owed.
    const cycleStartAt =
      row.state_cycle_start_at && (balance > 0n || pending > 0n) ? row.state_cycle_start_at : null;
    const first = firstCycleStart(settings.programStart, row.registered_at);

    return {
      ethBalance: balance,
      status,
      dailyRate: settings.rate ?? accruingRate,
      programStart: settings.programStart,
      activeStakers: started ? await countActiveStakers(now) : 0,
      creditedTotal: wei(row.credited_total),
      pendingAccrued: pending,
      accruingPerSecond: perSecondWei(accruing, accruingRate),
      dailyEarnings: dailyWei(accruing, accruingRate),
      cycleStartAt,
      nextCreditAt: cycleStartAt ? new Date(cycleStartAt.getTime() + DAY_MS) : null,
      stakingSince:
        status === 'active' && row.state_staking_since
          ? new Date(Math.max(row.state_staking_since.getTime(), first.getTime()))
          : null,
      asOf: now,
    };
  }

  /**
   * Closes the user's current cycle if it ended by `now`, in one transaction: checkpoints
   * up to the cycle's end, moves the cycle on, and credits what accrued. The unique index
   * on (user, staking_cycle_start) makes a second credit of one cycle impossible, and the
   * locks make a concurrent run find the cycle already moved on.
   */
  async function creditNextCycle(
    userId: string,
    now: Date,
  ): Promise<'credited' | 'advanced' | 'not_due'> {
    return withTransaction(pool, async (client) => {
      // The wallet first, then the staking row: the ledger's order.
      const balanceText = await repo.lockEthBalance(client, userId);
      const balance = balanceText === null ? 0n : wei(balanceText);
      const row = await repo.lockState(client, userId);
      if (!row) return 'not_due';
      const cycleStart = row.cycle_start_at;
      const cycleEnd = new Date(cycleStart.getTime() + DAY_MS);
      if (cycleEnd.getTime() > now.getTime()) return 'not_due';

      const settings = settingsFrom(await repo.readSettings(client));
      const before = accrualStateOf(row);
      const closed = checkpointAt(
        before,
        balance,
        cycleEnd,
        rateAfter(settings, before.rate, cycleEnd),
      );
      // No ETH and nothing owed: leave the row; the next checkpoint joins the current window.
      if (balance === 0n && closed.pending === 0n) return 'not_due';

      // Accrual checkpointed after the cycle's end but before this credit ran (a balance
      // change in the job's lag) is already in `pending`: it is paid now, once.
      await repo.saveState(client, {
        userId,
        accruedPending: '0',
        lastCheckpointAt: closed.lastCheckpointAt,
        dailyRate: formatRate(closed.rate),
        cycleStartAt: cycleEnd,
        stakingSince: row.staking_since,
      });
      if (closed.pending === 0n) return 'advanced';

      checkpointTime.set(client, cycleEnd);
      try {
        await ledger.post(client, {
          userId,
          assetId: 'ETH',
          type: 'staking_reward',
          direction: 'credit',
          amount: closed.pending,
          status: 'completed',
          createdBy: null,
          stakingCycleStart: cycleStart,
          transactionDate: cycleEnd,
        });
      } finally {
        checkpointTime.delete(client);
      }
      return 'credited';
    });
  }

  /**
   * Re-checkpoints, at `now`, every staker still accruing at a rate no longer set; returns
   * how many failed (logged; retried next run).
   */
  async function applyRateChange(now: Date): Promise<number> {
    let failed = 0;
    const settings = settingsFrom(await repo.readSettings(pool));
    if (!settings.rate || settings.rateSince.getTime() > now.getTime()) return failed;
    const rate = formatRate(settings.rate);
    let after = BEFORE_ANY_UUID;
    for (;;) {
      const users = await repo.findOtherRate(pool, rate, after, JOB_BATCH);
      for (const userId of users) {
        try {
          await withTransaction(pool, async (client) => {
            const balanceText = await repo.lockEthBalance(client, userId);
            const balance = balanceText === null ? 0n : wei(balanceText);
            await checkpointUser(client, userId, balance, now, false);
          });
        } catch (err) {
          failed += 1;
          log.error({ err, userId }, 'staking rate change checkpoint failed');
        }
      }
      const last = users.at(-1);
      if (!last || users.length < JOB_BATCH) return failed;
      after = last;
    }
  }

  /**
   * Credits every cycle that ended by `now`, oldest first per user, each in its own
   * transaction: after downtime each missed cycle is credited once, and a crash midway
   * keeps what was committed. The job runs on one instance (its lock, jobs.ts); without it the
   * row locks and the unique index still prevent a double credit, at the cost of waiting.
   */
  async function creditDueCycles(now: Date): Promise<CreditRun> {
    const result = { credited: 0, advanced: 0, failed: 0 };
    const startedBy = new Date(now.getTime() - DAY_MS);
    let after = BEFORE_ANY_UUID;
    for (;;) {
      const users = await repo.findDue(pool, startedBy, after, JOB_BATCH);
      for (const userId of users) {
        try {
          // Each step moves the cycle on by 24 h, so this ends at the current cycle.
          for (;;) {
            const step = await creditNextCycle(userId, now);
            if (step === 'not_due') break;
            result[step] += 1;
          }
        } catch (err) {
          result.failed += 1;
          log.error({ err, userId }, 'staking credit failed');
        }
      }
      const last = users.at(-1);
      if (!last || users.length < JOB_BATCH) break;
      after = last;
    }
    // After the credits: a cycle that ended before the rate changed is paid at the old rate.
    result.failed += await applyRateChange(now);
    return result;
  }

  /**
   * One run of the credit job, as of the service's clock. With several instances only the
   * holder of the job's lock calls it (jobs.ts, lib/job-lock.ts).
   */
  function runCreditJob(): Promise<CreditRun> {
    return creditDueCycles(clock());
  }

  return { beforeBalanceChange, overview, runCreditJob, creditDueCycles };
}

export type StakingService = ReturnType<typeof createStakingService>;
