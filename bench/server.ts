/**
 * The benchmark's server process: Coffer on an embedded database in a throw-away data
 * directory, plus a bare Fastify app on the same pool as the yardstick. Prints one JSON
 * line when ready; the benchmark driver runs in another process so the two don't share
 * an event loop.
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
import { hashPassword } from '../apps/server/src/lib/password';
import { SESSION_LOOKUP } from '../apps/server/src/modules/sessions/sessions.repository';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-'));
fs.chmodSync(dataDir, 0o755);
const embedded = await startEmbeddedPostgres({
  dir: dataDir,
  port: Number(process.env.BENCH_PG_PORT ?? 54395),
});
const config = { ...loadConfig({ DATA_DIR: dataDir, PORT: '3300' }), webDistDir: null };
const services = await openServices(config, embedded.url, createLogger('silent'));
const app = await buildApp(services, { logger: false, serveWeb: false });

// A customer with 2FA enabled and a session that passed it.
const user = await services.users.create({
  email: 'bench@example.com',
  passwordHash: await hashPassword('Bench-pass-1'),
  verified: true,
});
if (!user) throw new Error('bench user exists');
await services.pool.query('UPDATE user_profiles SET two_factor_enabled = true WHERE id = $1', [
  user.id,
]);
const token = await services.sessions.create({
  userId: user.id,
  twoFactorVerified: true,
  ip: '127.0.0.1',
  userAgent: 'bench',
});

// The yardstick: the same single indexed SELECT the session look-up runs, with no cookie,
// no gate, no security headers and no response schema.
const bare = Fastify({ logger: false });
const tokenHash = sha256Hex(token);
bare.get('/bare', async () => {
  const { rows } = await services.pool.query({
    ...SESSION_LOOKUP,
    name: 'bare_lookup',
    values: [tokenHash],
  });
  return rows[0];
});

await app.listen({ port: 0, host: '127.0.0.1' });
await bare.listen({ port: 0, host: '127.0.0.1' });
const portOf = (a: { server: { address(): unknown } }) =>
  (a.server.address() as { port: number }).port;

const shutdown = async () => {
  await app.close();
  await bare.close();
  await services.pool.end();
  await embedded.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

console.log(
  JSON.stringify({
    ready: true,
    appPort: portOf(app),
    barePort: portOf(bare),
    cookie: `coffer_session=${token}`,
  }),
);
