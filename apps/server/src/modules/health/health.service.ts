import { type Check, createReadinessChecks, type HealthContext } from './health-checks';
import { registerHealthMetrics } from './health-metrics';

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

/**
 * Whether this instance can do its work (GET /api/health/ready) and the operational figures
 * of /metrics. It looks at the same things as the admin overview's system health, with the
 * same thresholds, so the probe and the dashboard never disagree. The checks are in
 * `health-checks.ts`, the figures in `health-metrics.ts`.
 */
export function createHealth(ctx: HealthContext) {
  const check = createReadinessChecks(ctx);
  registerHealthMetrics(ctx);
  // Set when the instance begins to stop: a balancer should send nothing new here.
  let stopping = false;

  return {
    /** GET /api/health: the database answers (what callers of the first health check rely on). */
    async databaseUp(): Promise<boolean> {
      try {
        await check.database();
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
        await check.database();
        const [migrations, reconciliation, outbox] = await Promise.all([
          check.migrations(),
          check.reconciliation(),
          check.outbox(),
        ]);
        checks = {
          database: { ok: true },
          migrations,
          jobs: check.jobs(),
          priceFeed: check.prices(),
          reconciliation,
          outbox,
        };
      } catch {
        checks = {
          database: { ok: false, detail: 'Database unreachable' },
          migrations: down,
          jobs: check.jobs(),
          priceFeed: check.prices(),
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
