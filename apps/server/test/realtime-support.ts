import type { TRealtimeEvent, TRealtimeServerMessage } from '@coffer/shared';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { buildApp } from '../src/app';
import { createServices, type Services } from '../src/app-services';
import { createDb, createPool } from '../src/db/client';
import type { TestApp } from './helpers';

export type Instance = { app: FastifyInstance; services: Services; url: string };

/** Starts the instance's notification listener and serves it on a real port. */
export async function serve(app: FastifyInstance, services: Services): Promise<Instance> {
  await services.listener.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, services, url: `ws://127.0.0.1:${port}` };
}

/**
 * Another server instance on the test app's database (and its data directory): what a
 * second machine behind a load balancer would be.
 */
export async function secondInstance(t: TestApp): Promise<Instance & { close(): Promise<void> }> {
  const pool = createPool(t.databaseUrl);
  const services = createServices({
    config: t.services.config,
    pool,
    db: createDb(pool),
    secrets: t.services.secrets,
    mailer: t.services.mailer,
    log: t.services.log,
  });
  const app = await buildApp(services, { logger: false, serveWeb: false });
  const instance = await serve(app, services);
  return {
    ...instance,
    async close() {
      await app.close();
      await services.listener.stop();
      await pool.end();
    },
  };
}

export type TestSocket = {
  ws: WebSocket;
  /** Every event received so far, oldest first. */
  events: TRealtimeEvent[];
  /** Resolves with the first event (already received or coming) that matches. */
  next(match: (e: TRealtimeEvent) => boolean, timeoutMs?: number): Promise<TRealtimeEvent>;
  /** Resolves with the close code. */
  closed: Promise<number>;
  close(): void;
};

/** Opens the realtime socket as a browser would: cookie and the app's own Origin. */
export function openSocket(
  baseUrl: string,
  opts: { cookie?: string; origin?: string | null },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (opts.cookie) headers.cookie = opts.cookie;
    const ws = new WebSocket(`${baseUrl}/api/realtime`, {
      headers,
      ...(opts.origin === null ? {} : { origin: opts.origin ?? 'http://localhost:3000' }),
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`refused: ${res.statusCode}`));
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

/** Opens a socket, subscribes and waits for `ready`. */
export async function subscribed(baseUrl: string, cookie: string): Promise<TestSocket> {
  const ws = await openSocket(baseUrl, { cookie });
  const events: TRealtimeEvent[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as TRealtimeServerMessage;
      if (msg.type === 'ready') resolve();
      else {
        events.push(msg.event);
        for (const w of waiters) w();
      }
    });
    void closed.then((code) => reject(new Error(`closed before ready: ${code}`)));
  });
  ws.send(JSON.stringify({ type: 'subscribe' }));
  await ready;
  return {
    ws,
    events,
    closed,
    close: () => ws.close(),
    next(match, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('no matching event arrived'));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
  };
}
