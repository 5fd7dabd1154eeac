import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedDatabase } from '../src/db/embedded';
import { startFakeFeeds } from './fake-feeds';
import { ORIGIN, type SignedInUser, type TestApp, verifiedCustomer } from './helpers';
import { expectReconciled, fund, GOOD_ADDRESS, setSetting, stepUpFor } from './money-helpers';
import { subscribed } from './realtime-support';
import {
  killServerProcess,
  newSecretKey,
  type ServerProcess,
  startServerProcess,
  tempDataDir,
  testAppOn,
} from './server-process';

/**
 * The database goes away under load and comes back: an external PostgreSQL restarted (as
 * `pg_ctl restart -m fast` does), and the embedded one killed with SIGKILL, which the app
 * restarts itself. The server process stays up; meanwhile every request is answered, 200 or
 * a 503 with Retry-After (never a 500, never a cut connection); afterwards it serves again,
 * its notification listener is back (a new socket is told `ready` and hears an event), every
 * answered withdrawal is in the database and the ledger reconciles.
 */

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
const servers: ServerProcess[] = [];
const apps: TestApp[] = [];
const dirs: string[] = [];
let external: EmbeddedDatabase | undefined;

/**
 * The database module, imported as global-setup.ts does: the package's exit hooks that it
 * installs on load would end this test process on their own terms, so they are taken off.
 */
async function importEmbedded() {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const embedded = await import('../src/db/embedded');
  embedded.takeOffPackageSignalHooks();
  for (const l of process.listeners('beforeExit'))
    if (!beforeExit.has(l)) process.off('beforeExit', l);
  for (const l of process.listeners('exit')) if (!exit.has(l)) process.off('exit', l);
  return embedded;
}

beforeAll(async () => {
  feeds = await startFakeFeeds();
});
afterAll(async () => {
  for (const server of servers) await killServerProcess(server);
  for (const t of apps) await t.close().catch(() => {});
  await external?.stop();
  await feeds.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function newDir(prefix: string): string {
  const dir = tempDataDir(prefix);
  dirs.push(dir);
  return dir;
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({
    ...env,
    PRICE_FEED_URL: feeds.priceFeedUrl,
    FX_FEED_URL: feeds.fxFeedUrl,
  });
  servers.push(server);
  return server;
}

/** The in-process app on the server's database, with customers holding ETH. */
async function customersOn(databaseUrl: string, key: string, count: number) {
  const t = await testAppOn(databaseUrl, key);
  apps.push(t);
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  const customers: SignedInUser[] = [];
  for (let i = 0; i < count; i++) {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '10');
    customers.push(user);
  }
  return { t, customers };
}

type Answer = { at: number; status: number; retryAfter: string | null; id: string | null };

async function withdraw(url: string, user: SignedInUser, stepUp: { code: string }) {
  try {
    const res = await fetch(`${url}/api/withdrawals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: user.cookie },
      body: JSON.stringify({ assetId: 'ETH', amount: '0.001', address: GOOD_ADDRESS.ETH, stepUp }),
    });
    const body = (await res.json()) as { transaction?: { id?: string } };
    return {
      at: Date.now(),
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      id: body.transaction?.id ?? null,
    };
  } catch {
    // A cut connection, or no answer at all.
    return { at: Date.now(), status: 0, retryAfter: null, id: null };
  }
}

/** One withdrawal after another per customer, until `stop()`; every answer kept. */
function load(url: string, customers: SignedInUser[]) {
  const answers: Answer[] = [];
  let running = true;
  const loops = customers.map(async (user) => {
    let stepUp: { code: string } | null = null;
    while (running) {
      // A refused request spends no backup code: it is sent again with the same one, as the
      // browser's form would be. Each customer stops when its codes run out.
      try {
        stepUp ??= stepUpFor(user);
      } catch {
        return;
      }
      const answer = await withdraw(url, user, stepUp);
      answers.push(answer);
      if (answer.status === 200) stepUp = null;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** `attempt` again every 250 ms until it succeeds, for at most 15 s. */
async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * Runs load across `outage` (which takes the database away and brings it back), then checks
 * what the server answered and what the database holds. Returns the time from the outage's
 * start until a withdrawal succeeded again.
 */
async function survives(
  server: ServerProcess,
  t: TestApp,
  customers: SignedInUser[],
  outage: () => Promise<void>,
): Promise<number> {
  const traffic = load(server.url, customers);
  await new Promise((r) => setTimeout(r, 1_000));
  const lost = Date.now();
  await outage();
  // Back once a withdrawal succeeds after the first one refused.
  const backAt = () => {
    const refused = traffic.answers.findIndex((a) => a.at > lost && a.status !== 200);
    return refused < 0
      ? undefined
      : traffic.answers.slice(refused).find((a) => a.status === 200)?.at;
  };
  await expect
    .poll(backAt, { timeout: 30_000 })
    .toBeDefined()
    .catch((e) => {
      console.log('server output:', server.output(), JSON.stringify(traffic.answers.slice(-10)));
      throw e;
    });
  const recoveredMs = (backAt() ?? 0) - lost;
  await new Promise((r) => setTimeout(r, 500));
  await traffic.stop();

  expect(server.child.exitCode).toBeNull();
  const { answers } = traffic;
  // Answered before, during and after: 200, or 503 with Retry-After; nothing else.
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(5);
  expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
  expect(answers.filter((a) => a.status === 503 && a.retryAfter === null)).toEqual([]);

  // Every withdrawal the server confirmed is in the database; the ledger balances.
  const confirmed = answers.flatMap((a) => (a.status === 200 && a.id ? [a.id] : []));
  const { rows } = await t.services.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transactions WHERE id = ANY($1::uuid[])',
    [confirmed],
  );
  expect(rows[0]?.n).toBe(confirmed.length);
  await expectReconciled(t);

  // The notification listener is back: a new socket subscribes and hears an event.
  const [first] = customers;
  if (!first) throw new Error('no customer');
  // Until it is, sockets are told "try again later" (1013), as a browser is, and retry.
  const socket = await retried(() => subscribed(server.url.replace('http', 'ws'), first.cookie));
  await fund(t, first.userId, 'ETH', '1');
  await socket.next((e) => e.type === 'ledger.changed');
  // Presence took its lock again on a new connection: another instance sees the user online.
  expect(await t.services.realtime.isOnline(first.userId)).toBe(true);
  socket.close();
  return recoveredMs;
}

describe('losing the database under load', () => {
  it('an external PostgreSQL restarted: 503s while it is away, then everything works', async () => {
    const { startEmbeddedPostgres } = await importEmbedded();
    const { freePort } = await import('./free-port');
    const dir = newDir('coffer-external-pg-');
    const port = await freePort();
    external = await startEmbeddedPostgres({ dir, port, durable: false });
    const databaseUrl = external.url;
    const key = newSecretKey();
    const server = await start({
      DATABASE_URL: databaseUrl,
      DATA_DIR: newDir('coffer-data-'),
      COFFER_SECRET_KEY: key,
    });
    const { t, customers } = await customersOn(databaseUrl, key, 3);

    let downMs = 0;
    const recoveredMs = await survives(server, t, customers, async () => {
      // A fast shutdown (every connection terminated), a pause, and the same server again.
      const stopped = Date.now();
      await external?.stop();
      await new Promise((r) => setTimeout(r, 1_500));
      external = await startEmbeddedPostgres({ dir, port, durable: false });
      downMs = Date.now() - stopped;
    });
    console.log(
      `external PostgreSQL restart: database back after ${downMs} ms, serving again after ${recoveredMs} ms`,
    );
  }, 90_000);

  it('the embedded PostgreSQL killed with SIGKILL: the app restarts it and carries on', async () => {
    const dataDir = newDir('coffer-embedded-');
    const { freePort } = await import('./free-port');
    const port = await freePort();
    const key = newSecretKey();
    const server = await start({
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(port),
      COFFER_SECRET_KEY: key,
    });
    const password = fs.readFileSync(path.join(dataDir, 'pg.password'), 'utf8').trim();
    const databaseUrl = `postgres://coffer:${password}@127.0.0.1:${port}/coffer`;
    const { t, customers } = await customersOn(databaseUrl, key, 3);
    const postmaster = () =>
      Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const killed = postmaster();

    const recoveredMs = await survives(server, t, customers, async () => {
      process.kill(killed, 'SIGKILL');
    });
    // A new server process of the app's own making runs the database now.
    expect(postmaster()).not.toBe(killed);
    console.log(`embedded PostgreSQL kill -9: serving again ${recoveredMs} ms after the kill`);

    // It still stops cleanly, its database with it.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 90_000);
});
