import pg from 'pg';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_MS } from '../db/client';

type Handler = (payload: string) => void;

/**
 * One dedicated connection that LISTENs for PostgreSQL notifications, so every server
 * instance hears what any instance NOTIFYs (settings changes, realtime events). It
 * reconnects with backoff after a drop; while it is down, `listening` is false and users
 * of it must not trust what they cached.
 */
export function createPgListener(connectionString: string, log: Logger) {
  const handlers = new Map<string, Set<Handler>>();
  const disconnectHandlers = new Set<() => void>();
  let client: pg.Client | null = null;
  let stopped = false;
  let attempt = 0;
  let listening = false;

  async function connect(): Promise<void> {
    if (stopped) return;
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    c.on('notification', (msg) => {
      for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    c.on('error', (err) => log.warn({ err: String(err) }, 'notification connection error'));
    c.on('end', () => {
      if (client === c) {
        client = null;
        listening = false;
        for (const h of disconnectHandlers) h();
        if (!stopped) scheduleReconnect();
      }
    });
    try {
      await c.connect();
      for (const channel of handlers.keys())
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = c;
      listening = true;
      attempt = 0;
    } catch (err) {
      log.warn({ err: String(err) }, 'could not listen for notifications; retrying');
      await c.end().catch(() => {});
      scheduleReconnect();
    }
  }

  function scheduleReconnect() {
    attempt++;
    // At most 5 s: until it is back, sockets are refused and cached settings are not trusted.
    const delay = Math.min(5_000, 250 * 2 ** Math.min(attempt, 5));
    setTimeout(() => void connect(), delay).unref();
  }

  return {
    get listening() {
      return listening;
    },

    /** Calls `handler` for each notification on `channel`; register before `start()`. */
    on(channel: string, handler: Handler) {
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
    },

    /** Called when the connection drops: whatever was cached from notifications is stale. */
    onDisconnect(handler: () => void) {
      disconnectHandlers.add(handler);
    },

    start: () => connect(),

    async stop() {
      stopped = true;
      listening = false;
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}

export type PgListener = ReturnType<typeof createPgListener>;
