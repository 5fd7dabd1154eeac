import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../src/app-services';
import { loadConfig } from '../src/config';
import { createDb, createPool } from '../src/db/client';
import { createLogger } from '../src/infra';
import { type Jobs, startJobs } from '../src/jobs';
import { createSecrets } from '../src/lib/crypto';
import { createJobLocks, JOB_LOCK_KEYS, JOB_LOCK_NAMESPACE } from '../src/lib/job-lock';
import { createMailer } from '../src/lib/mailer';
import { startFakeFeeds } from './fake-feeds';
import { createTestApp, type TestApp } from './helpers';

/**
 * Several instances on one database: each exclusive job runs on exactly one of them, and
 * another takes it over when that one stops, loses its lock connection or is killed.
 */

// No chain is configured here, so no chain watcher runs and none of their locks is taken.
const RUN = Object.entries(JOB_LOCK_KEYS).filter(([job]) => !job.startsWith('chain-'));
const ALL = RUN.map(([job]) => job).sort();
const ALL_KEYS = RUN.map(([, key]) => key).sort((a, b) => a - b);
const root = path.resolve(import.meta.dirname, '../../..');

let t: TestApp;
let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
const started: Jobs[] = [];
const extraPools: Array<{ end(): Promise<void> }> = [];
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

/** The same for every instance; refreshed often, so a follower's prices show in the test. */
const FEEDS = () => ({
  PRICE_FEED_URL: feeds.priceFeedUrl,
  FX_FEED_URL: feeds.fxFeedUrl,
  PRICE_REFRESH_MS: '300',
});

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp(FEEDS());
});
// Whatever a test left running must not hold the locks the next one waits for.
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && !child.signalCode) child.kill();
  for (const jobs of started.splice(0)) await jobs.stop();
});
afterAll(async () => {
  for (const pool of extraPools) await pool.end();
  await feeds.close();
  await t.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Another instance's services on the test's database, as a second process would have. */
function secondInstance(): Services {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-jobs-data-'));
  dataDirs.push(dataDir);
  const pool = createPool(t.databaseUrl);
  extraPools.push(pool);
  const log = createLogger('silent');
  return createServices({
    config: {
      ...loadConfig({ DATA_DIR: dataDir, ...FEEDS() }),
      webDistDir: null,
    },
    pool,
    db: createDb(pool),
    secrets: createSecrets(randomBytes(32)),
    mailer: createMailer({ smtpUrl: null, from: 'Coffer <no-reply@coffer.test>', dataDir, log }),
    log,
  });
}

function jobsOf(s: Services, lockRetryMs?: number): Jobs {
  const jobs = startJobs(s, { lockRetryMs });
  started.push(jobs);
  return jobs;
}

/** The backends holding job locks, with the jobs each holds. */
async function lockHolders(): Promise<Array<{ pid: number; keys: number[] }>> {
  const { rows } = await t.services.pool.query<{ pid: number; keys: number[] }>(
    `SELECT pid, array_agg(objid::int ORDER BY objid) AS keys FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      GROUP BY pid`,
    [JOB_LOCK_NAMESPACE],
  );
  return rows;
}

/** Which of the exclusive jobs this instance has run (price follow runs on the others). */
const exclusiveRuns = (jobs: Jobs) =>
  Object.entries(jobs.stats())
    .filter(([name]) => name !== 'price follow')
    .map(([name, stat]) => [name, stat.runs > 0])
    .sort();

describe('exclusive jobs with two instances', () => {
  it('runs each job on one instance only; the other takes over when it stops or loses its lock connection', async () => {
    const a = jobsOf(t.services, 200);
    await a.started;
    const bServices = secondInstance();
    const b = jobsOf(bServices, 200);
    await b.started;

    // A took every lock at its start and ran every job at once; B, retrying, gets none.
    expect([...a.held()].sort()).toEqual(ALL);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(b.held()).toEqual([]);
    await expect
      .poll(() => exclusiveRuns(a))
      .toEqual([
        ['chat retention', true],
        ['clean-up', true],
        ['file sweep', true],
        ['outbox', true],
        ['price sync', true],
        ['reconciliation', true],
        ['staking credits', true],
      ]);
    // B ran nothing exclusive: it only follows A's price snapshots, as live prices.
    expect(Object.keys(b.stats())).toEqual(['price follow']);
    await expect.poll(() => bServices.prices.current().source).toBe('live');
    expect(Number(bServices.prices.current().quotes.BTC.priceUsd)).toBe(
      Number(t.services.prices.current().quotes.BTC.priceUsd),
    );
    const holders = await lockHolders();
    expect(holders).toHaveLength(1);
    expect(holders[0]?.keys).toEqual(ALL_KEYS);

    // A's lock connection is cut (a database restart, a network fault): A stops at once,
    // B takes every job within its retry, and A, reconnected, waits its turn.
    const holderPid = holders[0]?.pid;
    await t.services.pool.query('SELECT pg_terminate_backend($1)', [holderPid]);
    await expect.poll(() => a.held(), { timeout: 2_000, interval: 20 }).toEqual([]);
    await expect.poll(() => [...b.held()].sort(), { timeout: 3_000 }).toEqual(ALL);
    await expect.poll(() => exclusiveRuns(b).length, { timeout: 3_000 }).toBe(7);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(a.held()).toEqual([]);
    expect(await lockHolders()).toHaveLength(1);

    // B stops (a graceful shutdown): its locks are released and A takes over.
    await b.stop();
    await expect.poll(() => [...a.held()].sort(), { timeout: 3_000 }).toEqual(ALL);

    // A stops too: no job lock is left behind.
    await a.stop();
    expect(a.held()).toEqual([]);
    expect(await lockHolders()).toEqual([]);
  });
});

describe('an instance killed with SIGKILL', () => {
  it('loses its jobs to the other instance within a minute', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-jobs-child-'));
    dataDirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/job-instance.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: t.databaseUrl,
        DATA_DIR: dataDir,
        // The test app's key when it names one (the start-up key check), else a new one.
        COFFER_SECRET_KEY:
          (t as { secretKeyHex?: string }).secretKeyHex ?? randomBytes(32).toString('hex'),
        ...FEEDS(),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = new Promise<NodeJS.Signals | number>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)),
    );
    let errors = '';
    child.stderr?.on('data', (chunk) => {
      errors += String(chunk);
    });
    // The child takes every job lock (nothing else holds one now).
    const taken = new Set<string>();
    await new Promise<void>((resolve, reject) => {
      const lines = child.stdout ? readline.createInterface({ input: child.stdout }) : null;
      lines?.on('line', (line) => {
        let entry: { job?: string; msg?: string } = {};
        try {
          entry = JSON.parse(line);
        } catch {
          return;
        }
        if (entry.job && entry.msg?.startsWith('job lock taken')) taken.add(entry.job);
        if (taken.size === ALL.length) resolve();
      });
      void exited.then((how) => reject(new Error(`instance exited (${how})\n${errors}`)));
    });

    // This instance, with the production retry period, gets none while the child lives.
    const here = jobsOf(secondInstance());
    await here.started;
    expect(here.held()).toEqual([]);

    child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await exited).toBe('SIGKILL');
    await expect
      .poll(() => [...here.held()].sort(), { timeout: 60_000, interval: 25 })
      .toEqual(ALL);
    const failoverMs = Date.now() - killedAt;
    console.log(`Job lock failover after kill -9: ${failoverMs} ms`);
    expect(failoverMs).toBeLessThan(60_000);
    await expect.poll(() => exclusiveRuns(here).length).toBe(7);
    await here.stop();
  }, 90_000);
});

/**
 * A TCP relay to the database that can go silent: every byte is then swallowed and no
 * connection is closed, as when a network path drops without a reset.
 */
async function silentableRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let silent = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!silent) to.write(chunk);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    goSilent: () => {
      silent = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a holder whose database connection goes silent', () => {
  it('stops running its job within a check, before the server could hand the lock on', async () => {
    const relay = await silentableRelay(new URL(t.databaseUrl));
    const locks = createJobLocks({
      connectionString: relay.url,
      jobs: ['reconciliation'],
      log: createLogger('silent'),
      retryMs: 200,
    });
    try {
      await locks.start();
      expect(locks.held()).toEqual(['reconciliation']);

      relay.goSilent();
      const silentAt = Date.now();
      // The check every 200 ms times out after 4 s; the server would keep the session for
      // about 25 s (its keepalives), so no other instance can have the lock yet.
      await expect.poll(() => locks.held(), { timeout: 8_000, interval: 50 }).toEqual([]);
      expect(Date.now() - silentAt).toBeLessThan(6_000);
    } finally {
      // The relay's sockets close: the server ends the session and frees the lock.
      await relay.close();
      await locks.stop();
    }
    await expect.poll(lockHolders).toEqual([]);
  });
});
