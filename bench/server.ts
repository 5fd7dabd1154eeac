/**
 * The benchmark's server process: Coffer on an embedded database loaded with the
 * benchmark data set (10,000 customers, 1,000,000 ledger rows, 100,000 of them for one
 * customer, and the history-size customers of BENCH_ROWS), plus a bare Fastify app on the
 * same pool with the yardsticks: one single indexed SELECT, and for every scenario path (but
 * the history sizes', compared with each other) the statements Coffer ran for it, replayed
 * (bench/same-work.ts). Prints one JSON line when
 * ready; the load generator runs in another process so the two don't share an event loop.
 * The database lives in the system's temp directory and is reused by later runs, so only
 * the first run pays for the load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded';
import { createLogger, openServices } from '../apps/server/src/infra';
import { sha256Hex } from '../apps/server/src/lib/crypto';
import { SESSION_LOOKUP } from '../apps/server/src/modules/sessions/sessions.repository';
import { HEAVY_EMAIL, LOAD_EMAIL_DOMAIN, seedLoad } from '../apps/server/src/seed-load';
import {
  deepCursor,
  HISTORY_SIZES,
  type HistoryShape,
  historyEmail,
  seedHistoryCustomer,
} from './history-customers';
import { sameWorkRoute, statementRecorder } from './same-work';
import { scenarios, type Who } from './scenarios';

const dataDir = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'coffer-bench-data');
fs.mkdirSync(dataDir, { recursive: true });
fs.chmodSync(dataDir, 0o755);
const embedded = await startEmbeddedPostgres({
  dir: dataDir,
  port: Number(process.env.BENCH_PG_PORT ?? 54395),
});
const config = { ...loadConfig({ DATA_DIR: dataDir, PORT: '3300' }), webDistDir: null };
const services = await openServices(config, embedded.url, createLogger('silent'));
// As in production: settings are cached until a change is announced.
await services.listener.start();
const app = await buildApp(services, { logger: false, serveWeb: false });

const started = Date.now();
const loaded = await seedLoad(services.pool, {
  customers: 10_000,
  transactions: 1_000_000,
  heavy: 100_000,
});
process.stderr.write(`${loaded} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
const historyCustomers: Array<{ rows: number; shape: HistoryShape; userId: string }> = [];
const shapes: Array<[number, HistoryShape]> = [
  ...HISTORY_SIZES.map((rows): [number, HistoryShape] => [rows, 'grown']),
  [Math.max(...HISTORY_SIZES), 'busy'],
];
for (const [rows, shape] of shapes) {
  const began = Date.now();
  const userId = await seedHistoryCustomer(services.pool, rows, shape);
  historyCustomers.push({ rows, shape, userId });
  process.stderr.write(
    `History customer (${shape}) with ${rows} rows ready (${((Date.now() - began) / 1000).toFixed(0)} s)\n`,
  );
}
await services.pool.query('ANALYZE transactions');

/** A 2FA-verified session for a load customer: the benchmark measures signed-in work. */
async function sessionFor(email: string): Promise<{ cookie: string; token: string }> {
  const { rows } = await services.pool.query<{ id: string }>(
    'SELECT id FROM users WHERE email = $1',
    [email],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`no load user ${email}`);
  await services.pool.query('UPDATE user_profiles SET two_factor_enabled = true WHERE id = $1', [
    id,
  ]);
  const token = await services.sessions.create({
    userId: id,
    twoFactorVerified: true,
    ip: '127.0.0.1',
    userAgent: 'bench',
  });
  return { cookie: `coffer_session=${token}`, token };
}

const typical = await sessionFor(`customer5000@${LOAD_EMAIL_DOMAIN}`);
const heavy = await sessionFor(HEAVY_EMAIL);
// An operator for the back-office screens: one load account made an admin.
const adminEmail = `customer2@${LOAD_EMAIL_DOMAIN}`;
await services.pool.query(
  `INSERT INTO admin_users (user_id) SELECT id FROM users WHERE email = $1 ON CONFLICT DO NOTHING`,
  [adminEmail],
);
const admin = await sessionFor(adminEmail);
// What an operator searching for one customer types: that customer's name.
const { rows: named } = await services.pool.query<{ full_name: string }>(
  `SELECT p.full_name FROM user_profiles p JOIN users u ON u.id = p.id WHERE u.email = $1`,
  [`customer4321@${LOAD_EMAIL_DOMAIN}`],
);
const searchName = named[0]?.full_name ?? '';

// Cursors of the heavy customer's first 40 history pages, so the load walks deep pages too.
const historyUrls: string[] = ['/api/transactions?limit=25'];
for (let i = 0; i < 40; i++) {
  const res = await app.inject({
    url: historyUrls[historyUrls.length - 1] ?? '',
    headers: { cookie: heavy.cookie },
  });
  const next = res.json<{ nextCursor: string | null }>().nextCursor;
  if (!next) break;
  historyUrls.push(`/api/transactions?limit=25&cursor=${encodeURIComponent(next)}`);
}

// The yardstick: the same single indexed SELECT the session look-up runs, with no cookie,
// no gate, no security headers and no response schema.
const bare = Fastify({ logger: false });
const tokenHash = sha256Hex(typical.token);
bare.get('/bare', async () => {
  const { rows } = await services.pool.query({
    ...SESSION_LOOKUP,
    name: 'bare_lookup',
    // The token, then the default idle (customer, admin) and absolute limits in seconds.
    values: [tokenHash, 30 * 60, 15 * 60, 12 * 3600],
  });
  return rows[0];
});

// Every scenario's paths, each with the statements Coffer ran for it as its yardstick.
const cookies: Record<string, string> = {
  customer: typical.cookie,
  heavy: heavy.cookie,
  admin: admin.cookie,
};
for (const { rows, shape } of historyCustomers) {
  cookies[`${shape}-${rows}`] = (await sessionFor(historyEmail(rows, shape))).cookie;
}
const cookieOf = (who: Who) => cookies[who] ?? '';
const deepPages = [];
for (const { rows, shape, userId } of historyCustomers) {
  const cursor = await deepCursor(services.pool, userId, rows);
  deepPages.push({ rows, shape, url: `/api/transactions?limit=25&cursor=${cursor}` });
}
const recorder = statementRecorder(services.pool);
const yardsticks = new Map<string, string>();
const list = [];
for (const spec of scenarios({ heavyHistoryUrls: historyUrls, searchName, deepPages })) {
  const same: string[] = [];
  // The history-size scenarios are compared with each other, not with a yardstick.
  for (const path of spec.size ? [] : spec.paths) {
    const key = `${spec.who} ${path}`;
    let url = yardsticks.get(key);
    if (!url) {
      // Once to warm what the app caches, then recorded as a warm request runs.
      await app.inject({ url: path, headers: { cookie: cookieOf(spec.who) } });
      const steps = await recorder.record(async () => {
        const res = await app.inject({ url: path, headers: { cookie: cookieOf(spec.who) } });
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      });
      url = `/same/${yardsticks.size}`;
      sameWorkRoute(bare, services.pool, url, steps);
      yardsticks.set(key, url);
      if (process.env.BENCH_SHOW_STATEMENTS) {
        const count = steps.reduce((n, s) => n + s.statements.length, 0);
        process.stderr.write(`${key}: ${count} statements\n`);
        for (const step of steps) {
          for (const st of step.statements) {
            process.stderr.write(
              `  [${step.kind}] ${st.text.replace(/\s+/g, ' ').slice(0, 140)}\n`,
            );
          }
        }
      }
    }
    same.push(url);
  }
  list.push({ ...spec, cookie: cookieOf(spec.who), same });
}

await app.listen({ port: 0, host: '127.0.0.1' });
await bare.listen({ port: 0, host: '127.0.0.1' });
const portOf = (a: { server: { address(): unknown } }) =>
  (a.server.address() as { port: number }).port;

const shutdown = async () => {
  await app.close();
  await bare.close();
  await services.listener.stop();
  await services.pool.end();
  await embedded.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

console.log(
  JSON.stringify({
    ready: true,
    appPort: portOf(app),
    barePort: portOf(bare),
    scenarios: list,
  }),
);
