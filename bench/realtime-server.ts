/**
 * The realtime benchmark's server process: Coffer on its own embedded database with N
 * customers (each with a 2FA-verified session and one support conversation) and one admin.
 * Prints one JSON line when ready; answers `memory` over IPC with its memory after a full
 * garbage collection, so the load generator can work out the memory of a connected socket.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded';
import { createLogger, openServices } from '../apps/server/src/infra';

const CLIENTS = Number(process.env.BENCH_REALTIME_CLIENTS ?? 1000);
const DOMAIN = 'realtime.bench.coffer.invalid';

const dataDir =
  process.env.BENCH_REALTIME_DATA_DIR ?? path.join(os.tmpdir(), 'coffer-bench-realtime');
fs.mkdirSync(dataDir, { recursive: true });
const embedded = await startEmbeddedPostgres({
  dir: dataDir,
  port: Number(process.env.BENCH_REALTIME_PG_PORT ?? 54396),
});
const config = { ...loadConfig({ DATA_DIR: dataDir, PORT: '3301' }), webDistDir: null };
const services = await openServices(config, embedded.url, createLogger('silent'));
await services.listener.start();
const app = await buildApp(services, { logger: false, serveWeb: false });
const { pool } = services;

// Customers, their profiles with 2FA on, and one conversation each; made once, reused.
await pool.query(
  `INSERT INTO users (email, password_hash, email_verified_at)
   SELECT 'rt' || i || '@' || $1, 'not-a-password', now() FROM generate_series(0, $2::int) AS i
   ON CONFLICT DO NOTHING`,
  [DOMAIN, CLIENTS],
);
await pool.query(
  `INSERT INTO user_profiles (id, full_name, username, two_factor_enabled)
   SELECT id, 'Realtime ' || split_part(email, '@', 1), split_part(email, '@', 1), true
     FROM users WHERE email LIKE '%@' || $1
   ON CONFLICT (id) DO UPDATE SET two_factor_enabled = true`,
  [DOMAIN],
);
await pool.query(
  `INSERT INTO chat_rooms (user_id, status)
   SELECT u.id, 'active' FROM users u
    WHERE u.email LIKE '%@' || $1 AND NOT EXISTS (SELECT 1 FROM chat_rooms r WHERE r.user_id = u.id)`,
  [DOMAIN],
);
// rt0 is the operator.
await pool.query(
  `INSERT INTO admin_users (user_id) SELECT id FROM users WHERE email = $1 ON CONFLICT DO NOTHING`,
  [`rt0@${DOMAIN}`],
);
const { rows } = await pool.query<{ id: string; email: string; room_id: string }>(
  `SELECT u.id, u.email, (SELECT r.id FROM chat_rooms r WHERE r.user_id = u.id LIMIT 1) AS room_id
     FROM users u WHERE u.email LIKE '%@' || $1 ORDER BY u.email`,
  [DOMAIN],
);
await pool.query(`DELETE FROM sessions WHERE user_agent = 'bench-realtime'`);
const session = async (userId: string) =>
  `coffer_session=${await services.sessions.create({
    userId,
    twoFactorVerified: true,
    ip: '127.0.0.1',
    userAgent: 'bench-realtime',
  })}`;

const admin = rows.find((r) => r.email === `rt0@${DOMAIN}`);
if (!admin) throw new Error('no operator account');
const clients = [];
for (const r of rows) {
  if (r.id === admin.id) continue;
  clients.push({ userId: r.id, roomId: r.room_id, cookie: await session(r.id) });
}

await app.listen({ port: 0, host: '127.0.0.1' });

process.on('message', (msg) => {
  if (msg !== 'memory') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  process.send?.({
    heapUsed: m.heapUsed,
    rss: m.rss,
    external: m.external,
    connections: services.realtime.connections,
    gc: gc !== undefined,
  });
});

const shutdown = async () => {
  await app.close();
  await services.listener.stop();
  await pool.end();
  await embedded.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

const address = app.server.address();
console.log(
  JSON.stringify({
    port: typeof address === 'object' && address ? address.port : 0,
    adminCookie: await session(admin.id),
    clients: clients.slice(0, CLIENTS),
  }),
);
