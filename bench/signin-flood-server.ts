/**
 * The sign-in flood benchmark's server process: Coffer as in production (behind one proxy,
 * TRUST_PROXY=1, with its timed jobs running) on its own embedded database with one real
 * customer. While it runs it also probes what a flood used to starve, every second: a new
 * database connection (its SCRAM key derivation runs on libuv's thread pool, like scrypt),
 * and the staking credits and reconciliation work, each run reported to /metrics as a job
 * run. Prints one JSON line when ready; answers `reset` and `stats` over IPC.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded';
import { createLogger, openServices } from '../apps/server/src/infra';
import { startJobs } from '../apps/server/src/jobs';
import { hashPassword } from '../apps/server/src/lib/password';

const EMAIL = 'customer@signin.bench.coffer.invalid';
const PASSWORD = 'Bench-Customer-7';

const dataDir = process.env.BENCH_SIGNIN_DATA_DIR ?? path.join(os.tmpdir(), 'coffer-bench-signin');
fs.mkdirSync(dataDir, { recursive: true });
const embedded = await startEmbeddedPostgres({
  dir: dataDir,
  port: Number(process.env.BENCH_SIGNIN_PG_PORT ?? 54397),
});
const config = {
  ...loadConfig({ DATA_DIR: dataDir, PORT: '3302', TRUST_PROXY: '1' }),
  webDistDir: null,
};
const services = await openServices(config, embedded.url, createLogger('silent'));
await services.listener.start();
const app = await buildApp(services, { logger: false, serveWeb: false });
const { pool } = services;

// The real customer, and no counts left over from an earlier run.
const passwordHash = await hashPassword(PASSWORD);
if (!(await services.users.create({ email: EMAIL, passwordHash, verified: true }))) {
  await pool.query('UPDATE users SET password_hash = $1 WHERE email = $2', [passwordHash, EMAIL]);
}
await pool.query('DELETE FROM rate_limits');
await pool.query('DELETE FROM sessions');

const jobs = startJobs(services);
await jobs.started;

type Probe = { connectMs: number[]; connectFailures: number; runs: number; failures: number };
let probe: Probe = { connectMs: [], connectFailures: 0, runs: 0, failures: 0 };

/** One job's work, timed and reported to /metrics as the scheduler reports its runs. */
async function run(name: string, task: () => Promise<unknown>) {
  try {
    await task();
    services.metrics.jobRun(name, true);
  } catch {
    probe.failures += 1;
    services.metrics.jobRun(name, false);
  } finally {
    probe.runs += 1;
  }
}

const probing = setInterval(() => {
  void (async () => {
    const started = Date.now();
    // As the pool opens one: the same 10 s connect timeout.
    const client = new pg.Client({
      connectionString: embedded.url,
      connectionTimeoutMillis: 10_000,
    });
    try {
      await client.connect();
      await client.query('SELECT 1');
      probe.connectMs.push(Date.now() - started);
    } catch {
      probe.connectFailures += 1;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  void run('staking credits (bench probe)', () => services.staking.runCreditJob());
  void run('reconciliation (bench probe)', () => services.ledgerCheck.run());
}, 1000);

process.on('message', (msg) => {
  if (msg === 'reset') {
    probe = { connectMs: [], connectFailures: 0, runs: 0, failures: 0 };
    process.send?.('ok');
  }
  if (msg === 'stats') {
    const scheduled = Object.values(jobs.stats());
    process.send?.({
      ...probe,
      scheduledRuns: scheduled.reduce((n, s) => n + s.runs, 0),
      scheduledFailures: scheduled.reduce((n, s) => n + s.failures, 0),
    });
  }
});

const shutdown = async () => {
  clearInterval(probing);
  await app.close();
  await jobs.stop();
  await services.listener.stop();
  await services.limiter.close();
  await pool.end();
  await embedded.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(
  JSON.stringify({
    port: typeof address === 'object' && address ? address.port : 0,
    email: EMAIL,
    password: PASSWORD,
  }),
);
