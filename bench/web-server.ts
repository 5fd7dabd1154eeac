/**
 * The web benchmark's server process: the built web app served by Coffer as in production,
 * on a fresh embedded database with a few load customers, one of them signed in for the
 * dashboard. Prints one JSON line when ready: the port and that customer's cookie.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded';
import { createLogger, openServices } from '../apps/server/src/infra';
import { LOAD_EMAIL_DOMAIN, seedLoad } from '../apps/server/src/seed-load';

// A new database every run: the figures measure the pages, not what earlier runs left.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-web-'));
fs.chmodSync(dataDir, 0o755);
const embedded = await startEmbeddedPostgres({
  dir: dataDir,
  port: Number(process.env.BENCH_PG_PORT ?? 54397),
});
const port = Number(process.env.BENCH_WEB_PORT ?? 3331);
// BENCH_WEB_DIST measures another build (an earlier version's, for a before-and-after).
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: String(port),
  ...(process.env.BENCH_WEB_DIST ? { WEB_DIST_DIR: process.env.BENCH_WEB_DIST } : {}),
});
if (!config.webDistDir || !fs.existsSync(path.join(config.webDistDir, 'index.html'))) {
  throw new Error('No web build: run `npm run build` first.');
}
const services = await openServices(config, embedded.url, createLogger('silent'));
await services.listener.start();
const app = await buildApp(services, { logger: false });

// A dashboard with some history behind it, as a customer who has used Coffer for a while.
await seedLoad(services.pool, { customers: 20, transactions: 400, heavy: 100 });
const email = `customer5@${LOAD_EMAIL_DOMAIN}`;
const { rows } = await services.pool.query<{ id: string }>(
  'SELECT id FROM users WHERE email = $1',
  [email],
);
const userId = rows[0]?.id;
if (!userId) throw new Error(`no load user ${email}`);
await services.pool.query('UPDATE user_profiles SET two_factor_enabled = true WHERE id = $1', [
  userId,
]);
// A customer past onboarding: without a recovery phrase the portal would send them to make one,
// and the figures would be that page's.
await services.phrases.ensure(userId);
const token = await services.sessions.create({
  userId,
  twoFactorVerified: true,
  ip: '127.0.0.1',
  userAgent: 'bench',
});

await app.listen({ port, host: '127.0.0.1' });

const shutdown = async () => {
  await app.close();
  await services.listener.stop();
  await services.pool.end();
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

console.log(JSON.stringify({ ready: true, port, cookie: `coffer_session=${token}` }));
