import { withTransaction } from '@server/db/tx';
import { checkpointAt, DAY_MS, formatRate } from './staking.accrual';
import { stakingRepository as repo } from './staking.repository';
import { checkpointUser } from './staking-checkpoint';
import { accrualStateOf, rateAfter, type StakingContext, settingsFrom } from './staking-context';

/** The credit job: each 24-hour cycle that ended is credited once, and rate changes applied. */

const JOB_BATCH = 200;
const BEFORE_ANY_UUID = '00000000-0000-0000-0000-000000000000';

export type CreditRun = {
  /** Cycles paid with a staking_reward transaction. */
  credited: number;
  /** Cycles that ended with nothing accrued: moved on without a transaction. */
  advanced: number;
  /** Users whose credit failed this run (logged; retried next run). */
  failed: number;
};

/**
 * Closes the user's current cycle if it ended by `now`, in one transaction: checkpoints
 * up to the cycle's end, moves the cycle on, and credits what accrued. The unique index
 * on (user, staking_cycle_start) makes a second credit of one cycle impossible, and the
 * locks make a concurrent run find the cycle already moved on.
 */
async function creditNextCycle(
  ctx: StakingContext,
  userId: string,
  now: Date,
): Promise<'credited' | 'advanced' | 'not_due'> {
  return withTransaction(ctx.pool, async (client) => {
    // The wallet first, then the staking row: the ledger's order.
    const balance = await repo.lockEthBalance(client, userId);
    const row = await repo.lockState(client, userId);
    if (!row) return 'not_due';
    const cycleStart = row.cycle_start_at;
    const cycleEnd = new Date(cycleStart.getTime() + DAY_MS);
    if (cycleEnd.getTime() > now.getTime()) return 'not_due';

    const settings = settingsFrom(ctx, await repo.readSettings(client));
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

    ctx.checkpointTime.set(client, cycleEnd);
    try {
      await ctx.ledger.post(client, {
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
      ctx.checkpointTime.delete(client);
    }
    return 'credited';
  });
}

/**
 * Re-checkpoints, at `now`, every staker still accruing at a rate no longer set; returns
 * how many failed (logged; retried next run).
 */
async function applyRateChange(ctx: StakingContext, now: Date): Promise<number> {
  let failed = 0;
  const settings = settingsFrom(ctx, await repo.readSettings(ctx.pool));
  if (!settings.rate || settings.rateSince.getTime() > now.getTime()) return failed;
  const rate = formatRate(settings.rate);
  let after = BEFORE_ANY_UUID;
  for (;;) {
    const users = await repo.findOtherRate(ctx.pool, rate, after, JOB_BATCH);
    for (const userId of users) {
      try {
        await withTransaction(ctx.pool, async (client) => {
          const balance = await repo.lockEthBalance(client, userId);
          await checkpointUser(ctx, client, userId, balance, now, false);
        });
      } catch (err) {
        failed += 1;
        ctx.log.error({ err, userId }, 'staking rate change checkpoint failed');
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
export async function creditDueCycles(ctx: StakingContext, now: Date): Promise<CreditRun> {
  const result = { credited: 0, advanced: 0, failed: 0 };
  const startedBy = new Date(now.getTime() - DAY_MS);
  let after = BEFORE_ANY_UUID;
  for (;;) {
    const users = await repo.findDue(ctx.pool, startedBy, after, JOB_BATCH);
    for (const userId of users) {
      try {
        // Each step moves the cycle on by 24 h, so this ends at the current cycle.
        for (;;) {
          const step = await creditNextCycle(ctx, userId, now);
          if (step === 'not_due') break;
          result[step] += 1;
        }
      } catch (err) {
        result.failed += 1;
        ctx.log.error({ err, userId }, 'staking credit failed');
      }
    }
    const last = users.at(-1);
    if (!last || users.length < JOB_BATCH) break;
    after = last;
  }
  // After the credits: a cycle that ended before the rate changed is paid at the old rate.
  result.failed += await applyRateChange(ctx, now);
  return result;
}
