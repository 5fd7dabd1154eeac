import type { Services } from './app-services';
import { createJobLocks, type ExclusiveJob } from './lib/job-lock';

const HOUR = 3600_000;
const MINUTE = 60_000;
/** How often queued mails and file removals are looked for: a retry is due at most this late. */
const OUTBOX_EVERY_MS = 5_000;
/** How often a chain's watcher asks its node for new blocks (an Ethereum block is ~12 s). */
export const CHAIN_EVERY_MS = 5_000;

export type JobStats = { runs: number; failures: number; lastRunAt: Date | null };

export type Jobs = {
  /** Clears the timers, waits for runs under way, then releases the locks. */
  stop(): Promise<void>;
  /** The exclusive jobs this instance runs now. */
  held(): ExclusiveJob[];
  /** Runs and failures of each job on this instance since it started. */
  stats(): Record<string, JobStats>;
  /** Settles once the first try for the locks is done (tests wait for it). */
  started: Promise<void>;
};

type Job = {
  name: string;
  everyMs: number;
  task: () => Promise<unknown>;
  /** Set: only the instance holding this job's lock runs it (lib/job-lock.ts). */
  exclusive?: ExclusiveJob;
};

/**
 * Timed work. With several instances on one database, each exclusive job runs on exactly
 * one: the instance that holds its advisory lock; another takes it over when that one dies.
 */
export function startJobs(s: Services, opts: { lockRetryMs?: number } = {}): Jobs {
  const jobs: Job[] = [
    // Once across instances is enough; running it everywhere would only repeat the deletes.
    {
      name: 'clean-up',
      exclusive: 'clean-up',
      everyMs: HOUR,
      task: async () => {
        await s.sessions.deleteExpired();
        await s.limiter.deleteStale();
        await s.outbox.prune();
      },
    },
    // The periodic delivery picks up retries and what a crash between a commit and its
    // delivery left behind. The request that queued a row still delivers it itself right
    // after its commit, on any instance: rows are claimed with SKIP LOCKED.
    {
      name: 'outbox',
      exclusive: 'outbox',
      everyMs: OUTBOX_EVERY_MS,
      // The whole run, however slow the mail server: a request's call waits only briefly.
      task: () => s.outbox.deliver({ wait: 'all' }),
    },
    // Uploads no row names; the store is shared by every instance, so one sweep will do.
    { name: 'file sweep', exclusive: 'clean-up', everyMs: HOUR, task: () => s.fileSweep.run() },
    // Closed chats older than `chat_retention_days` (0 keeps them), audited: chat/chat-retention.ts.
    {
      name: 'chat retention',
      exclusive: 'clean-up',
      everyMs: HOUR,
      task: () => s.chat.applyRetention(),
    },
    // One instance polls the feeds and snapshots them; the others read the snapshots.
    {
      name: 'price sync',
      exclusive: 'price-sync',
      everyMs: s.config.priceRefreshMs,
      task: () => s.prices.refresh(),
    },
    {
      name: 'price follow',
      everyMs: s.config.priceRefreshMs,
      task: async () => {
        // Live while as fresh as the holder keeps them: a snapshot is stored at most every
        // 20 s, and may land just after this instance looked.
        if (!locks.holds('price-sync'))
          await s.prices.loadCached(2 * s.config.priceRefreshMs + 20_000);
      },
    },
    // What the admin dashboard's health shows; a ledger out of balance is also logged.
    {
      name: 'reconciliation',
      exclusive: 'reconciliation',
      everyMs: MINUTE,
      task: async () => {
        const result = await s.ledgerCheck.run();
        if (!result.clean)
          s.log.error({ job: 'reconciliation', ...result }, 'ledger out of balance');
      },
    },
    // A credit is due at most a minute late.
    {
      name: 'staking credits',
      exclusive: 'staking-credits',
      everyMs: MINUTE,
      task: async () => {
        const run = await s.staking.runCreditJob();
        if (run.credited > 0 || run.failed > 0)
          s.log.info({ job: 'staking credits', ...run }, 'staking credits');
      },
    },
    // Each configured chain's watcher, on one instance (its lock): a run follows the node
    // as far as it has gone; a failing node is retried with the watcher's own backoff.
    ...s.chainWatchers.map(
      (watcher): Job => ({
        name: `chain ${watcher.chain}`,
        exclusive: `chain-${watcher.chain}`,
        everyMs: CHAIN_EVERY_MS,
        task: async () => {
          const result = await watcher.tick();
          if (result.state === 'failed') throw new Error(result.error);
        },
      }),
    ),
  ];

  const stats: Record<string, JobStats> = {};
  const inFlight = new Map<string, Promise<void>>();
  let stopping = false;

  /** Runs a job unless it is already running here; failures are logged, never thrown. */
  function run(job: Job) {
    if (stopping || inFlight.has(job.name)) return;
    if (job.exclusive && !locks.holds(job.exclusive)) return;
    const stat = stats[job.name] ?? { runs: 0, failures: 0, lastRunAt: null };
    stats[job.name] = stat;
    const p = (async () => {
      try {
        await job.task();
        s.metrics.jobRun(job.name, true);
      } catch (err) {
        stat.failures += 1;
        s.metrics.jobRun(job.name, false);
        s.log.warn({ err, job: job.name }, 'job failed');
      } finally {
        stat.runs += 1;
        stat.lastRunAt = new Date();
        inFlight.delete(job.name);
      }
    })();
    inFlight.set(job.name, p);
  }

  const exclusive = [...new Set(jobs.flatMap((j) => (j.exclusive ? [j.exclusive] : [])))];
  const locks = createJobLocks({
    connectionString: String(s.pool.options.connectionString ?? ''),
    jobs: exclusive,
    log: s.log,
    retryMs: opts.lockRetryMs,
    // A new holder runs the job at once: its last holder may have died just before its turn.
    onAcquired: (name) => {
      for (const job of jobs) if (job.exclusive === name) run(job);
    },
  });

  // /metrics and the readiness check show which exclusive jobs run here (health module).
  s.metrics.attachJobs(locks);

  const timers = jobs.map((job) => {
    const timer = setInterval(() => run(job), job.everyMs);
    timer.unref();
    return timer;
  });
  for (const job of jobs) if (!job.exclusive) run(job);
  const started = locks.start();

  return {
    started,
    held: () => locks.held(),
    stats: () => structuredClone(stats),
    async stop() {
      stopping = true;
      for (const t of timers) clearInterval(t);
      await started;
      await Promise.all(inFlight.values());
      await locks.stop();
    },
  };
}
