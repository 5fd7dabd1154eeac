import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '@server/db/migrate';
import type { Metrics } from '@server/lib/metrics';
import type pg from 'pg';
import client from 'prom-client';
import type { LedgerCheck } from '../ledger';
import type { PriceService } from '../prices';
import { healthRepository as repo } from './health.repository';

/** Prices older than this are stale: the admin overview's threshold (admin-users), the same. */
export const PRICE_MAX_AGE_SECONDS = 15 * 60;
/** The reconciliation read is at most this old (as the admin overview's); older is rerun. */
const LEDGER_CHECK_MAX_AGE_MS = 2 * 60_000;
/** An outbox row due longer than this means no worker is delivering (retries are re-dated). */
export const OUTBOX_MAX_OVERDUE_SECONDS = 15 * 60;
/** A job failing this many runs in a row makes the instance not ready. */
export const JOB_MAX_FAILURES_IN_A_ROW = 3;
/** A database that does not answer within this is as good as down for a probe. */
const DATABASE_TIMEOUT_MS = 2_000;

export type Check = { ok: boolean; detail?: string };
export type Readiness = {
  ready: boolean;
  checks: {
    database: Check;
    migrations: Check;
    jobs: Check;
    priceFeed: Check;
    reconciliation: Check;
    outbox: Check;
  };
  /** What is wrong, in words, for whoever reads the probe's answer. */
  problems: string[];
};

type Deps = {
  pool: pg.Pool;
  prices: Pick<PriceService, 'current'>;
  ledgerCheck: Pick<LedgerCheck, 'recent'>;
  realtime: { readonly connections: number };
  metrics: Metrics;
};

type OutboxBacklog = { pending: number; givenUp: number; overdueSeconds: number };

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

/**
 * Whether this instance can do its work (GET /api/health/ready) and the operational figures
 * of /metrics. It looks at the same things as the admin overview's system health, with the
 * same thresholds, so the probe and the dashboard never disagree.
 */
export function createHealth(deps: Deps) {
  const { pool, prices, ledgerCheck, realtime, metrics } = deps;
  const expectedMigration = newestMigration();
  // Applied migrations are never undone: once seen complete, not asked again.
  let migrationsApplied = false;
  // Set when the instance begins to stop: a balancer should send nothing new here.
  let stopping = false;

  const database = (): Promise<unknown> =>
    withTimeout(repo.ping(pool), DATABASE_TIMEOUT_MS, 'The database');

  async function outboxBacklog(): Promise<OutboxBacklog> {
    const row = await repo.outboxBacklog(pool);
    return {
      pending: row?.pending ?? 0,
      givenUp: row?.given_up ?? 0,
      overdueSeconds: row?.overdue ?? 0,
    };
  }

  function priceAgeSeconds(): number | null {
    const { updatedAt } = prices.current();
    return updatedAt ? Math.max(0, (Date.now() - updatedAt.getTime()) / 1000) : null;
  }

  async function checkMigrations(): Promise<Check> {
    if (migrationsApplied) return { ok: true };
    try {
      migrationsApplied = Number((await repo.newestMigration(pool)) ?? 0) >= expectedMigration;
    } catch {
      // No migrations table: nothing was ever migrated here.
      migrationsApplied = false;
    }
    return migrationsApplied ? { ok: true } : { ok: false, detail: 'Migrations not applied' };
  }

  function checkJobs(): Check {
    const failing = [...metrics.jobStates()]
      .filter(([, state]) => state.failuresInARow >= JOB_MAX_FAILURES_IN_A_ROW)
      .map(([name, state]) => `${name} (${state.failuresInARow} runs)`);
    if (failing.length > 0) return { ok: false, detail: `Jobs failing: ${failing.join(', ')}` };
    // Which exclusive jobs run here: none is fine, another instance holds them.
    const held = metrics.jobsHeld();
    return held === null
      ? { ok: true }
      : { ok: true, detail: `Holds: ${held.join(', ') || 'none'}` };
  }

  function checkPrices(): Check {
    const age = priceAgeSeconds();
    if (age === null)
      return { ok: false, detail: 'No prices yet: the price feed has not answered' };
    if (age > PRICE_MAX_AGE_SECONDS)
      return { ok: false, detail: `Price feed is ${Math.floor(age / 60)} minutes old` };
    return { ok: true };
  }

  async function checkReconciliation(): Promise<Check> {
    const result = await ledgerCheck.recent(LEDGER_CHECK_MAX_AGE_MS);
    return result.clean
      ? { ok: true }
      : { ok: false, detail: 'Ledger reconciliation: wallets out of balance' };
  }

  async function checkOutbox(): Promise<Check> {
    const backlog = await outboxBacklog();
    return backlog.overdueSeconds > OUTBOX_MAX_OVERDUE_SECONDS
      ? {
          ok: false,
          detail: `Outbox delivery is ${Math.floor(backlog.overdueSeconds / 60)} minutes behind`,
        }
      : { ok: true };
  }

  // Figures read when scraped. A figure that cannot be read now (the database is down) is
  // left out of that scrape rather than failing the whole page.
  const registers = [metrics.registry];
  new client.Gauge({
    name: 'coffer_db_pool_connections',
    help: "The main database pool's connections: total open, idle, and requests waiting for one",
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new client.Gauge({
    name: 'coffer_db_pool_max_connections',
    help: "The main database pool's size",
    registers,
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
  new client.Gauge({
    name: 'coffer_websocket_connections',
    help: 'Realtime websockets open on this instance',
    registers,
    collect() {
      this.set(realtime.connections);
    },
  });
  new client.Gauge({
    name: 'coffer_price_age_seconds',
    help: 'Age of the prices in use (-1 when there are none yet)',
    registers,
    collect() {
      this.set(priceAgeSeconds() ?? -1);
    },
  });
  new client.Gauge({
    name: 'coffer_outbox_backlog',
    help: 'Outbox rows not delivered: pending (waiting or retrying) and given_up (for an operator)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      const backlog = await outboxBacklog().catch(() => null);
      if (!backlog) return;
      this.set({ state: 'pending' }, backlog.pending);
      this.set({ state: 'given_up' }, backlog.givenUp);
    },
  });
  new client.Gauge({
    name: 'coffer_outbox_overdue_seconds',
    help: 'How long the oldest due outbox row has waited past its time (0: none)',
    registers,
    async collect() {
      this.reset();
      const backlog = await outboxBacklog().catch(() => null);
      if (backlog) this.set(backlog.overdueSeconds);
    },
  });
  new client.Gauge({
    name: 'coffer_reconciliation_mismatched_wallets',
    help: 'Wallets whose balance or hold differs from their ledger rows (0: reconciled)',
    registers,
    async collect() {
      this.reset();
      const result = await ledgerCheck.recent(LEDGER_CHECK_MAX_AGE_MS).catch(() => null);
      if (result) this.set(result.mismatchedWallets);
    },
  });

  return {
    /** GET /api/health: the database answers (what callers of the first health check rely on). */
    async databaseUp(): Promise<boolean> {
      try {
        await database();
        return true;
      } catch {
        return false;
      }
    },

    /** The shutdown calls this first: from then on the instance answers not ready. */
    markStopping(): void {
      stopping = true;
    },

    async ready(): Promise<Readiness> {
      const down = { ok: false, detail: 'Not checked: the database is unreachable' };
      let checks: Readiness['checks'];
      try {
        await database();
        const [migrations, reconciliation, outbox] = await Promise.all([
          checkMigrations(),
          checkReconciliation(),
          checkOutbox(),
        ]);
        checks = {
          database: { ok: true },
          migrations,
          jobs: checkJobs(),
          priceFeed: checkPrices(),
          reconciliation,
          outbox,
        };
      } catch {
        checks = {
          database: { ok: false, detail: 'Database unreachable' },
          migrations: down,
          jobs: checkJobs(),
          priceFeed: checkPrices(),
          reconciliation: down,
          outbox: down,
        };
      }
      const problems = Object.values(checks)
        .filter((c) => !c.ok && c !== down)
        .map((c) => c.detail ?? 'Failed');
      if (stopping) problems.unshift('Shutting down');
      return { ready: !stopping && Object.values(checks).every((c) => c.ok), checks, problems };
    },
  };
}

export type Health = ReturnType<typeof createHealth>;
