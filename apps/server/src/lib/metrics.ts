import client from 'prom-client';
import { hashingLoad } from './password';

/** What the readiness check needs to know of one timed job on this instance. */
export type JobState = {
  lastRunAt: Date;
  lastOk: boolean;
  /** Failed runs in a row, 0 after a good one. */
  failuresInARow: number;
};

/**
 * The instance's Prometheus registry (served at /metrics). One registry per app rather than
 * prom-client's global one: tests build many apps in one process, and each must count alone.
 * Figures read from elsewhere (pool, sockets, prices, outbox, ledger) are gauges the health
 * module adds with `collect` callbacks, so they are read when scraped, never stale.
 */
export function createMetrics() {
  const registry = new client.Registry();
  // CPU, memory, event-loop delay, GC: what an operator looks at first when requests slow.
  client.collectDefaultMetrics({ register: registry });

  const requestDuration = new client.Histogram({
    name: 'coffer_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their latency',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobRuns = new client.Counter({
    name: 'coffer_job_runs_total',
    help: 'Runs of the timed jobs on this instance, by job and outcome (ok or failed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobLastSuccess = new client.Gauge({
    name: 'coffer_job_last_success_timestamp_seconds',
    help: 'When each job last ran without failing on this instance (Unix time)',
    labelNames: ['job'] as const,
    registers: [registry],
  });

  const jobs = new Map<string, JobState>();
  // The jobs runner of this instance, once main.ts has started it (tests run without one).
  let runner: { held(): readonly string[] } | null = null;
  new client.Gauge({
    name: 'coffer_job_locks_held',
    help: 'Exclusive jobs whose lock this instance holds (1), so it is the one running them',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const job of runner?.held() ?? []) this.set({ job }, 1);
    },
  });

  // The hashing pool is one per process (lib/password.ts): how full it is, when sign-ins slow.
  new client.Gauge({
    name: 'coffer_password_hashes',
    help: 'Password hashes on this process: running on a thread, or waiting for one',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const load = hashingLoad();
      this.set({ state: 'running' }, load.running);
      this.set({ state: 'waiting' }, load.waiting);
    },
  });

  return {
    registry,

    /**
     * One answered request. `route` is the route's pattern (`/api/users/:id`), never the URL
     * as sent, so ids and typos cannot grow the number of series without bound.
     */
    observeRequest(method: string, route: string, status: number, seconds: number): void {
      requestDuration.observe({ method, route, status: String(status) }, seconds);
    },

    /** The jobs runner calls this after every run of a job, good or failed. */
    jobRun(job: string, ok: boolean): void {
      jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' });
      const now = new Date();
      if (ok) jobLastSuccess.set({ job }, now.getTime() / 1000);
      const before = jobs.get(job);
      jobs.set(job, {
        lastRunAt: now,
        lastOk: ok,
        failuresInARow: ok ? 0 : (before?.failuresInARow ?? 0) + 1,
      });
    },

    /** Lets /metrics and the readiness check see which exclusive jobs this instance holds. */
    attachJobs(jobsRunner: { held(): readonly string[] }): void {
      runner = jobsRunner;
    },

    /** The exclusive jobs this instance holds, or null when no jobs runner is attached. */
    jobsHeld(): readonly string[] | null {
      return runner ? runner.held() : null;
    },

    /** The jobs that have run on this instance so far, by name. */
    jobStates(): ReadonlyMap<string, JobState> {
      return jobs;
    },

    /** The text a Prometheus server scrapes. */
    async render(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
