import type { Services } from './app-services';

const HOUR = 3600_000;
const MINUTE = 60_000;
/** How often queued mails and file removals are looked for: a retry is due at most this late. */
const OUTBOX_EVERY_MS = 5_000;

/** Runs `task` now and every `everyMs`, logging failures instead of crashing the server. */
function every(s: Services, name: string, everyMs: number, task: () => Promise<unknown>) {
  const run = async () => {
    try {
      await task();
    } catch (err) {
      s.log.warn({ err, job: name }, 'job failed');
    }
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  void run();
  return timer;
}

/**
 * Timed work of each instance. Clean-up and price refreshes are safe to run on every
 * instance at once; jobs that must run exactly once take an advisory lock.
 */
export function startJobs(s: Services) {
  const timers = [
    every(s, 'clean-up', HOUR, async () => {
      await s.sessions.deleteExpired();
      await s.limiter.deleteStale();
      await s.outbox.prune();
    }),
    // Every instance delivers: rows are claimed with SKIP LOCKED, so none goes out twice at
    // once. Normally the request that queued a row has delivered it already; this picks up
    // retries and whatever a crash between a commit and its delivery left behind.
    every(s, 'outbox', OUTBOX_EVERY_MS, () => s.outbox.deliver()),
    // Uploads no row names (a crash between writing a file and committing its row).
    every(s, 'file sweep', HOUR, () => s.fileSweep.run()),
    every(s, 'price refresh', s.config.priceRefreshMs, () => s.prices.refresh()),
    // What the admin dashboard's health shows; a ledger out of balance is also logged.
    every(s, 'ledger check', MINUTE, async () => {
      const result = await s.ledgerCheck.run();
      if (!result.clean) s.log.error({ job: 'ledger check', ...result }, 'ledger out of balance');
    }),
    // Exactly once across instances (advisory lock inside); a credit is due at most a minute late.
    every(s, 'staking credits', MINUTE, async () => {
      const run = await s.staking.runCreditJob();
      if (run.credited > 0 || run.failed > 0)
        s.log.info({ job: 'staking credits', ...run }, 'staking credits');
    }),
  ];
  return {
    stop: () => {
      for (const t of timers) clearInterval(t);
    },
  };
}
