import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '@server/db/migrate';
import type { Metrics } from '@server/lib/metrics';
import type pg from 'pg';
import type { LedgerCheck } from '../ledger';
import type { PriceService } from '../prices';
import { healthRepository as repo } from './health.repository';

/** Prices older than this are stale: the admin overview's threshold (admin-users), the same. */
export const PRICE_MAX_AGE_SECONDS = 15 * 60;
/** The reconciliation read is at most this old (as the admin overview's); older is rerun. */
export const LEDGER_CHECK_MAX_AGE_MS = 2 * 60_000;
/** An outbox row due longer than this means no worker is delivering (retries are re-dated). */
export const OUTBOX_MAX_OVERDUE_SECONDS = 15 * 60;
/** A job failing this many runs in a row makes the instance not ready. */
export const JOB_MAX_FAILURES_IN_A_ROW = 3;
/**
 * The chain watchers' jobs (`chain bitcoin`, … in jobs.ts). A node that is down stops no
 * customer's request, so a watcher failing is reported by `chain-status`, the dashboard's
 * health and the job metrics, never by readiness: a balancer must not pull the instance
 * that happens to hold the chain's job while it still serves everyone.
 */
const isChainJob = (name: string) => name.startsWith('chain ');
/** A database that does not answer within this is as good as down for a probe. */
const DATABASE_TIMEOUT_MS = 2_000;

export type Check = { ok: boolean; detail?: string };

/** What the probes and the figures look at, shared by the parts of `createHealth`. */
export type HealthContext = {
  pool: pg.Pool;
  prices: Pick<PriceService, 'current'>;
  ledgerCheck: Pick<LedgerCheck, 'recent'>;
  realtime: { readonly connections: number };
  metrics: Metrics;
};

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The newest migration in the build, as drizzle records it (`created_at` = the journal's `when`). */
function newestMigration(): number {
  const journal: { entries: { when: number }[] } = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  );
  return Math.max(...journal.entries.map((e) => e.when));
}

/** How old the prices in use are, or null before the feed first answered. */
export function priceAgeSeconds(ctx: HealthContext): number | null {
  const { updatedAt } = ctx.prices.current();
  return updatedAt ? Math.max(0, (Date.now() - updatedAt.getTime()) / 1000) : null;
}

/** Each readiness check, with the same thresholds as the admin overview's system health. */
export function createReadinessChecks(ctx: HealthContext) {
  const { pool, ledgerCheck, metrics } = ctx;
  const expectedMigration = newestMigration();
  // Applied migrations are never undone: once seen complete, not asked again.
  let migrationsApplied = false;

  return {
    database: (): Promise<unknown> =>
      withTimeout(repo.ping(pool), DATABASE_TIMEOUT_MS, 'The database'),

    async migrations(): Promise<Check> {
      if (migrationsApplied) return { ok: true };
      try {
        migrationsApplied = ((await repo.newestMigration(pool)) ?? 0) >= expectedMigration;
      } catch {
        // No migrations table: nothing was ever migrated here.
        migrationsApplied = false;
      }
      return migrationsApplied ? { ok: true } : { ok: false, detail: 'Migrations not applied' };
    },

    jobs(): Check {
      const failingJobs = [...metrics.jobStates()].filter(
        ([, state]) => state.failuresInARow >= JOB_MAX_FAILURES_IN_A_ROW,
      );
      const named = (jobs: typeof failingJobs) =>
        jobs.map(([name, state]) => `${name} (${state.failuresInARow} runs)`).join(', ');
      const failing = failingJobs.filter(([name]) => !isChainJob(name));
      if (failing.length > 0) return { ok: false, detail: `Jobs failing: ${named(failing)}` };
      const chains = failingJobs.filter(([name]) => isChainJob(name));
      // Which exclusive jobs run here: none is fine, another instance holds them.
      const held = metrics.jobsHeld();
      const details = [
        ...(held === null ? [] : [`Holds: ${held.join(', ') || 'none'}`]),
        ...(chains.length > 0
          ? [`Chain watchers failing (see chain-status; not a readiness matter): ${named(chains)}`]
          : []),
      ];
      return details.length === 0 ? { ok: true } : { ok: true, detail: details.join('; ') };
    },

    prices(): Check {
      const age = priceAgeSeconds(ctx);
      if (age === null)
        return { ok: false, detail: 'No prices yet: the price feed has not answered' };
      if (age > PRICE_MAX_AGE_SECONDS)
        return { ok: false, detail: `Price feed is ${Math.floor(age / 60)} minutes old` };
      return { ok: true };
    },

    async reconciliation(): Promise<Check> {
      const result = await ledgerCheck.recent(LEDGER_CHECK_MAX_AGE_MS);
      return result.clean
        ? { ok: true }
        : { ok: false, detail: 'Ledger reconciliation: wallets out of balance' };
    },

    async outbox(): Promise<Check> {
      const backlog = await repo.outboxBacklog(pool);
      return backlog.overdueSeconds > OUTBOX_MAX_OVERDUE_SECONDS
        ? {
            ok: false,
            detail: `Outbox delivery is ${Math.floor(backlog.overdueSeconds / 60)} minutes behind`,
          }
        : { ok: true };
    },
  };
}
