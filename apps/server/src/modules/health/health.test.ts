import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '@server/app';
import { createServices } from '@server/app-services';
import { createDb, createPool } from '@server/db/client';
import { createLogger } from '@server/infra';
import { createSecrets } from '@server/lib/crypto';
import { createMailer } from '@server/lib/mailer';
import { startFakeFeeds } from '@server-test/fake-feeds';
import { freePort } from '@server-test/free-port';
import {
  call,
  createTestApp,
  STRONG_PASSWORD,
  signUpAndSignIn,
  type TestApp,
} from '@server-test/helpers';
import { expectReconciled, fund } from '@server-test/money-helpers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Every line the app logs, parsed. */
const lines: Record<string, unknown>[] = [];
const destination = {
  write(line: string) {
    lines.push(JSON.parse(line));
  },
};

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp(
    { PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl },
    createLogger('trace', destination),
  );
  await t.services.prices.refresh();
});
afterAll(async () => {
  await t?.close();
  await feeds?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('health probes', () => {
  it('live answers 200 while the process runs', async () => {
    const res = await call(t, { url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('ready answers 200 with every check passing on a working instance', async () => {
    const res = await call(t, { url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ready).toBe(true);
    expect(body.problems).toEqual([]);
    for (const name of [
      'database',
      'migrations',
      'jobs',
      'priceFeed',
      'reconciliation',
      'outbox',
    ]) {
      expect(body.checks[name].ok, name).toBe(true);
    }
    // The first health check keeps answering its callers as before.
    const old = await call(t, { url: '/api/health' });
    expect(old.statusCode).toBe(200);
    expect(old.json()).toEqual({ ok: true });
  });

  it('ready answers 503 with the reason when the prices in use are stale, and 200 once fresh', async () => {
    await t.services.pool.query(
      "UPDATE price_snapshots SET taken_at = taken_at - interval '1 hour'",
    );
    await t.services.prices.loadCached();
    const stale = await call(t, { url: '/api/health/ready' });
    expect(stale.statusCode).toBe(503);
    expect(stale.headers['retry-after']).toBe('10');
    expect(stale.json().ready).toBe(false);
    expect(stale.json().checks.priceFeed.ok).toBe(false);
    expect(stale.json().problems).toEqual(['Price feed is 60 minutes old']);

    await t.services.prices.refresh();
    expect((await call(t, { url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('ready answers 503 while a job keeps failing, and 200 after it succeeds', async () => {
    const { metrics } = t.services;
    metrics.jobRun('reconciliation', false);
    metrics.jobRun('reconciliation', false);
    // Two failures in a row may be a blip.
    expect((await call(t, { url: '/api/health/ready' })).statusCode).toBe(200);
    metrics.jobRun('reconciliation', false);
    const failing = await call(t, { url: '/api/health/ready' });
    expect(failing.statusCode).toBe(503);
    expect(failing.json().problems).toEqual(['Jobs failing: reconciliation (3 runs)']);

    metrics.jobRun('reconciliation', true);
    expect((await call(t, { url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it("ready stays 200 while a chain's watcher keeps failing: chain-status and /metrics report it", async () => {
    const { metrics } = t.services;
    // The job's name as jobs.ts gives it; a node down for a while fails it every poll.
    for (let i = 0; i < 5; i++) metrics.jobRun('chain bitcoin', false);
    const ready = await call(t, { url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      ready: true,
      problems: [],
      checks: {
        jobs: {
          ok: true,
          detail:
            'Chain watchers failing (see chain-status; not a readiness matter): chain bitcoin (5 runs)',
        },
      },
    });
    const page = await call(t, { url: '/metrics' });
    expect(page.body).toContain('coffer_job_runs_total{job="chain bitcoin",outcome="failed"} 5');
    // Any other job failing as long still makes the instance not ready.
    for (let i = 0; i < 3; i++) metrics.jobRun('clean-up', false);
    const failing = await call(t, { url: '/api/health/ready' });
    expect(failing.statusCode).toBe(503);
    expect(failing.json().problems).toEqual(['Jobs failing: clean-up (3 runs)']);
    metrics.jobRun('clean-up', true);
    metrics.jobRun('chain bitcoin', true);
    const after = await call(t, { url: '/api/health/ready' });
    expect(after.statusCode).toBe(200);
    expect(after.json().checks.jobs).toEqual({ ok: true });
  });

  it('ready answers 503 when outbox rows wait long past their time, and 200 once they go', async () => {
    const { rows } = await t.services.pool.query<{ id: string }>(
      `INSERT INTO outbox (kind, payload_encrypted, next_attempt_at)
       VALUES ('mail', 'x', now() - interval '20 minutes') RETURNING id`,
    );
    try {
      const behind = await call(t, { url: '/api/health/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json().problems).toEqual(['Outbox delivery is 20 minutes behind']);
      const page = await metricsPage();
      expect(page).toMatch(/^coffer_outbox_backlog\{state="pending"\} 1$/m);
      expect(Number(/^coffer_outbox_overdue_seconds (\S+)$/m.exec(page)?.[1])).toBeGreaterThan(
        1199,
      );
    } finally {
      await t.services.pool.query('DELETE FROM outbox WHERE id = $1', [rows[0]?.id]);
    }
    expect((await call(t, { url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('ready answers 503 when a wallet is out of balance with its ledger', async () => {
    const user = await signUpAndSignIn(t);
    await fund(t, user.userId, 'BTC', '0.5');
    const wallet = "user_id = $1 AND asset_id = 'BTC'";
    await t.services.pool.query(
      `UPDATE user_wallets SET balance_crypto = balance_crypto + 1 WHERE ${wallet}`,
      [user.userId],
    );
    try {
      await t.services.ledgerCheck.run();
      const res = await call(t, { url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().problems).toEqual(['Ledger reconciliation: wallets out of balance']);
      expect(await metricsPage()).toMatch(/^coffer_reconciliation_mismatched_wallets 1$/m);
    } finally {
      await t.services.pool.query(
        `UPDATE user_wallets SET balance_crypto = balance_crypto - 1 WHERE ${wallet}`,
        [user.userId],
      );
      await t.services.ledgerCheck.run();
    }
    await expectReconciled(t);
    expect((await call(t, { url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('ready answers 503 once the instance begins to stop; live stays 200', async () => {
    const other = await createTestApp({
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
    });
    try {
      await other.services.prices.refresh();
      expect((await call(other, { url: '/api/health/ready' })).statusCode).toBe(200);
      other.services.health.markStopping();
      const res = await call(other, { url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().problems).toEqual(['Shutting down']);
      expect((await call(other, { url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('answers 503, not 500, when the database is unreachable; live stays 200', async () => {
    const port = await freePort();
    const pool = createPool(`postgres://coffer@127.0.0.1:${port}/coffer`);
    const log = createLogger('silent');
    const services = createServices({
      config: t.services.config,
      pool,
      db: createDb(pool),
      secrets: createSecrets(randomBytes(32)),
      mailer: createMailer({
        smtpUrl: null,
        from: 'Coffer <no-reply@coffer.test>',
        dataDir: t.dataDir,
        log,
      }),
      log,
    });
    const app = await buildApp(services, { logger: false, serveWeb: false });
    try {
      const ready = await app.inject({ url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['retry-after']).toBe('10');
      expect(ready.json().checks.database).toEqual({ ok: false, detail: 'Database unreachable' });
      expect(ready.json().problems).toContain('Database unreachable');
      const old = await app.inject({ url: '/api/health' });
      expect(old.statusCode).toBe(503);
      expect(old.json()).toEqual({ ok: false });
      expect((await app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
      // The figures that need no database are still scraped.
      const page = await app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(/^coffer_db_pool_connections\{state="total"\} \d+$/m);
    } finally {
      await app.close();
      await services.limiter.close();
      await pool.end();
    }
  });
});

async function metricsPage(): Promise<string> {
  const res = await call(t, { url: '/metrics', ip: '127.0.0.1' });
  expect(res.statusCode).toBe(200);
  return res.body;
}

function signUpRequest(email: string) {
  return {
    method: 'POST' as const,
    url: '/api/auth/sign-up',
    body: { email, password: STRONG_PASSWORD },
    ip: '203.0.113.9',
  };
}

describe('/metrics', () => {
  it('serves the named metric families in Prometheus text format to this machine', async () => {
    await call(t, { url: '/api/health/live' });
    t.services.metrics.jobRun('outbox', true);
    const res = await call(t, { url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const family of [
      'coffer_http_request_duration_seconds histogram',
      'coffer_db_pool_connections gauge',
      'coffer_db_pool_max_connections gauge',
      'coffer_job_runs_total counter',
      'coffer_job_last_success_timestamp_seconds gauge',
      'coffer_job_locks_held gauge',
      'coffer_outbox_backlog gauge',
      'coffer_outbox_overdue_seconds gauge',
      'coffer_reconciliation_mismatched_wallets gauge',
      'coffer_websocket_connections gauge',
      'coffer_price_age_seconds gauge',
      'process_cpu_seconds_total counter',
    ]) {
      expect(res.body).toContain(`# TYPE ${family}`);
    }
    // Requests are counted by route pattern, never by the URL as sent.
    expect(res.body).toMatch(
      /^coffer_http_request_duration_seconds_count\{method="GET",route="\/api\/health\/live",status="200"\} [1-9]/m,
    );
    expect(res.body).toMatch(/^coffer_job_runs_total\{job="outbox",outcome="ok"\} 1$/m);
    expect(res.body).toMatch(/^coffer_reconciliation_mismatched_wallets 0$/m);
    expect(res.body).toMatch(/^coffer_websocket_connections 0$/m);
    const age = Number(/^coffer_price_age_seconds (\S+)$/m.exec(res.body)?.[1]);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(600);
  });

  it('is refused to other machines and to anything a proxy relayed', async () => {
    const away = await call(t, { url: '/metrics', ip: '198.51.100.7' });
    expect(away.statusCode).toBe(403);
    expect(away.json().error).toBe('FORBIDDEN');
    expect(away.body).not.toContain('coffer_');
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const relayed = await call(t, {
        url: '/metrics',
        ip: '127.0.0.1',
        headers: { [header]: '127.0.0.1' },
      });
      expect(relayed.statusCode, header).toBe(403);
      expect(relayed.body).not.toContain('coffer_');
    }
  });

  it('with METRICS_TOKEN, answers only to that bearer token, from anywhere', async () => {
    const token = randomBytes(24).toString('hex');
    const other = await createTestApp({ METRICS_TOKEN: token });
    try {
      const none = await call(other, { url: '/metrics', ip: '127.0.0.1' });
      expect(none.statusCode).toBe(401);
      expect(none.json().error).toBe('UNAUTHENTICATED');
      const wrong = await call(other, {
        url: '/metrics',
        headers: { authorization: `Bearer ${token.slice(1)}x` },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).not.toContain('coffer_');
      const right = await call(other, {
        url: '/metrics',
        ip: '198.51.100.7',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('# TYPE coffer_db_pool_connections gauge');
    } finally {
      await other.close();
    }
  });
});

describe('paths that are not pages', () => {
  let web: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Coffer</title>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    web = await buildApp(
      { ...t.services, config: { ...t.services.config, webDistDir: dist } },
      { logger: false },
    );
  });
  afterAll(async () => {
    await web?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('unknown /api, monitoring-like, dot-file and missing-file GETs are JSON 404s, never the page', async () => {
    for (const url of [
      '/api/x',
      '/api',
      '/API/health/nothing',
      '/metrics/',
      '/metrics.json',
      '/metricsz',
      '/healthz',
      '/health',
      '/readyz',
      '/status',
      '/actuator/prometheus',
      '/.env',
      '/.git/config',
      '/assets/old-chunk.js',
      '/wp-login.php',
    ]) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toEqual({ error: 'NOT_FOUND', message: 'Not found.' });
    }
    // A malformed escape is refused before routing: a client error, still not the page.
    const malformed = await web.inject({ url: '/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toMatch(/^application\/json/);
  });

  it("the app's pages and build files are still served", async () => {
    for (const url of [
      '/',
      '/dashboard',
      '/dashboard/asset/USDT-TRC20',
      '/verify-email?token=a.b',
    ]) {
      const res = await web.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Coffer</title>');
    }
    const file = await web.inject({ url: '/assets/app-1234.js' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('console.log(1)');
  });
});

describe('request ids', () => {
  it('echoes an incoming X-Request-Id and names it in every log line of the request', async () => {
    const id = `edge-${randomBytes(6).toString('hex')}`;
    const email = `reqid-${randomBytes(3).toString('hex')}@example.com`;
    const res = await call(t, { ...signUpRequest(email), headers: { 'x-request-id': id } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe(id);
    // The sign-up's mail is written after the commit, by a service's own logger.
    await expect
      .poll(() => lines.some((l) => l.msg === 'mail written to outbox' && l.reqId === id))
      .toBe(true);
    const ofRequest = lines.filter((l) => l.reqId === id);
    expect(ofRequest.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed', 'mail written to outbox']),
    );
    // Written once per line, not twice.
    for (const raw of ofRequest) expect(JSON.stringify(raw).split('"reqId"').length).toBe(2);
  });

  it('gives requests without an id, and with a hostile one, a fresh random id', async () => {
    const a = await call(t, { url: '/api/health/live' });
    const b = await call(t, { url: '/api/health/live' });
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);

    for (const hostile of [
      'x'.repeat(129),
      'two words',
      '<script>alert(1)</script>',
      'id";"level":60',
      'a,b',
      '',
    ]) {
      const res = await call(t, { url: '/api/nothing', headers: { 'x-request-id': hostile } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['x-request-id'], hostile).toMatch(UUID);
      expect(lines.some((l) => l.reqId === hostile)).toBe(false);
    }
    // Long but within bounds, with the characters tracers use, is kept.
    const traced = `Root=1-${'a'.repeat(24)}:span/1+2@edge.${'b'.repeat(60)}`;
    expect(traced.length).toBeLessThanOrEqual(128);
    const res = await call(t, { url: '/api/health/live', headers: { 'x-request-id': traced } });
    expect(res.headers['x-request-id']).toBe(traced);
  });
});
