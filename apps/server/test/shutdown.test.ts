import net from 'node:net';
import { REALTIME_CLOSE } from '@coffer/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFeeds } from './fake-feeds';
import {
  createTestApp,
  ORIGIN,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
} from './helpers';
import { expectReconciled, fund, GOOD_ADDRESS, setSetting, stepUpFor } from './money-helpers';
import { subscribed } from './realtime-support';
import {
  killServerProcess,
  newSecretKey,
  type ServerProcess,
  startServerProcess,
  testAppOn,
} from './server-process';

/**
 * SIGTERM to the real server while withdrawals wait on a wallet lock: it stops taking
 * connections, lets every one of them finish, closes its sockets with "server restarting",
 * and exits 0.
 */

let base: TestApp;
let t: TestApp;
let server: ServerProcess | undefined;
let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let locker: pg.Client | undefined;
const key = newSecretKey();

beforeAll(async () => {
  feeds = await startFakeFeeds();
  // Only for its database; `t` is the app on it with the server process's key, so the backup
  // codes the money helpers store are valid step-up factors on the server process too.
  base = await createTestApp();
  t = await testAppOn(base.databaseUrl, key);
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
});
afterAll(async () => {
  await locker?.end().catch(() => {});
  await killServerProcess(server);
  await t.close();
  await base.close();
  await feeds.close();
});

/** POST /api/withdrawals to the server process, as the browser sends it. */
async function withdraw(url: string, user: SignedInUser) {
  const res = await fetch(`${url}/api/withdrawals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: user.cookie },
    body: JSON.stringify({
      assetId: 'ETH',
      amount: '0.01',
      address: GOOD_ADDRESS.ETH,
      stepUp: stepUpFor(user),
    }),
  });
  return { status: res.status, body: await res.text() };
}

const withdrawalsOf = async (userIds: string[]) => {
  const { rows } = await t.services.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM transactions WHERE transaction_type = 'withdrawal' AND user_id = ANY($1)",
    [userIds],
  );
  return rows[0]?.n ?? 0;
};

describe('SIGTERM with requests in flight', () => {
  it('finishes every request, says "restarting" to every socket, and exits 0', async () => {
    server = await startServerProcess({
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      COFFER_SECRET_KEY: key,
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
    });
    const url = server.url;
    const customers: SignedInUser[] = [];
    for (let i = 0; i < 4; i++) {
      const user = await verifiedCustomer(t);
      await fund(t, user.userId, 'ETH', '10');
      customers.push(user);
    }
    const ids = customers.map((c) => c.userId);
    const socket = await subscribed(url.replace('http', 'ws'), customers[0]?.cookie ?? '');
    const closeFrame = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );

    // Another transaction holds the four wallets: every withdrawal waits for it.
    const lock = new pg.Client({ connectionString: t.databaseUrl });
    locker = lock;
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM user_wallets WHERE user_id = ANY($1) FOR UPDATE', [ids]);
    let answered = 0;
    const inFlight = customers.flatMap((c) =>
      Array.from({ length: 5 }, () =>
        withdraw(url, c)
          .catch((err: unknown) => ({ status: 0, body: String(err) }))
          .finally(() => {
            answered++;
          }),
      ),
    );
    // The first ones wait on the wallet locks; the rest wait behind them for a connection.
    await expect
      .poll(
        async () => {
          const { rows } = await lock.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return rows[0]?.n;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(4);
    await new Promise((r) => setTimeout(r, 500));
    expect(answered).toBe(0);

    server.child.kill('SIGTERM');
    // The socket hears why it closes, at once.
    expect(await closeFrame).toEqual({
      code: REALTIME_CLOSE.restarting,
      reason: 'server restarting',
    });
    // No new connection is taken while the old ones finish.
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(Number(new URL(url).port), '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve('accepted');
      });
      probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(server.child.exitCode).toBeNull();

    await lock.query('COMMIT');
    await lock.end();
    const results = await Promise.all(inFlight);
    // Every withdrawal that was waiting completed: none cut, none refused.
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await server.exited).toBe(0);
    expect(await withdrawalsOf(ids)).toBe(20);
    await expectReconciled(t);
  }, 60_000);

  it('gives up on a request still waiting after SHUTDOWN_TIMEOUT_S: it is cut, and nothing of it is kept', async () => {
    const started = await startServerProcess({
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      COFFER_SECRET_KEY: key,
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
      SHUTDOWN_TIMEOUT_S: '1',
    });
    server = started;
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '10');
    const lock = new pg.Client({ connectionString: t.databaseUrl });
    locker = lock;
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM user_wallets WHERE user_id = $1 FOR UPDATE', [user.userId]);
    const waiting = withdraw(started.url, user).catch(() => ({ status: 0, body: 'cut' }));
    await expect
      .poll(
        async () => {
          const { rows } = await lock.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return rows[0]?.n;
        },
        { timeout: 10_000 },
      )
      .toBe(1);

    const signalled = Date.now();
    started.child.kill('SIGTERM');
    // The stop does not wait for the lock: bounded by the timeout (and the pool's close).
    expect(await started.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect((await waiting).status).toBe(0);

    // Its transaction died with its connection: once the lock is free, nothing was withdrawn.
    await lock.query('COMMIT');
    await lock.end();
    expect(await withdrawalsOf([user.userId])).toBe(0);
    await expectReconciled(t);
  }, 60_000);
});
