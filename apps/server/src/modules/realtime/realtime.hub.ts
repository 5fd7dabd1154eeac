import { randomInt } from 'node:crypto';
import {
  REALTIME_CLOSE,
  type TRealtimeEvent,
  type TRealtimeServerMessage,
  ZRealtimeClientMessage,
  ZRealtimeEvent,
} from '@coffer/shared';
import type { PgListener } from '@server/lib/pg-listener';
import { needsTwoFactor } from '@server/plugins/gate';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { SessionContext, Sessions } from '../sessions';
import { createPresence } from './presence';
import { type Queryable, realtimeRepository as repo } from './realtime.repository';

/** The one PostgreSQL channel every realtime event travels on. */
export const REALTIME_CHANNEL = 'coffer_events';
/** Under PostgreSQL's NOTIFY payload limit (8,000 bytes), with room to spare. */
const NOTIFY_PAYLOAD_BYTES = 7_000;
/**
 * Where the database announces ended sessions (a trigger on `sessions`, migration 0003):
 * the payload is the user's id, and that user's sockets are checked again at once.
 */
export const SESSIONS_CHANNEL = 'coffer_sessions';

export type RealtimeTiming = {
  /** How long a new socket may stay without sending `subscribe`. */
  authTimeoutMs: number;
  /** How often a socket's session is looked up again (and the socket pinged). */
  recheckMs: number;
};

type Connection = {
  socket: WebSocket;
  token: string;
  userId: string;
  isAdmin: boolean;
  subscribed: boolean;
  alive: boolean;
  timer: NodeJS.Timeout;
};

/** Whether a session may hold a realtime socket: present and past the gate of */
function admits(session: SessionContext | null): session is SessionContext {
  return session !== null && !needsTwoFactor(session);
}

/**
 * The realtime hub of one server instance (docs/architecture.md). Events are published with
 * `pg_notify` on the caller's client, so an event written inside a transaction is sent
 * only if it commits; every instance LISTENs on the one channel and hands each event to the
 * sockets allowed to read it: a customer's sockets get the events about that customer, an
 * admin's sockets get all of them.
 */
export function createRealtimeHub(deps: {
  listener: PgListener;
  pool: pg.Pool;
  connectionString: string;
  sessions: Sessions;
  log: Logger;
}) {
  const timing: RealtimeTiming = { authTimeoutMs: 5_000, recheckMs: 30_000 };
  const byUser = new Map<string, Set<Connection>>();
  const admins = new Set<Connection>();
  const all = new Set<Connection>();
  const presence = createPresence(deps);
  let restarting = false;

  function send(conn: Connection, message: string) {
    if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
  }

  /** A NOTIFY carries one event (publish), or an array of them (publishMany). */
  function deliver(payload: string) {
    let events: TRealtimeEvent[];
    try {
      const parsed: unknown = JSON.parse(payload);
      events = (Array.isArray(parsed) ? parsed : [parsed]).map((e) => ZRealtimeEvent.parse(e));
    } catch {
      deps.log.warn('ignored a malformed realtime event');
      return;
    }
    for (const event of events) deliverOne(event);
  }

  function deliverOne(event: TRealtimeEvent) {
    const message = JSON.stringify({ type: 'event', event } satisfies TRealtimeServerMessage);
    for (const conn of byUser.get(event.userId) ?? []) if (conn.subscribed) send(conn, message);
    for (const conn of admins) if (conn.subscribed) send(conn, message);
  }

  /**
   * Announces many events with few NOTIFYs (a chain block moves every confirming deposit's
   * count at once): packed as arrays under PostgreSQL's 8,000-byte payload limit.
   */
  async function publishMany(client: Queryable, events: readonly TRealtimeEvent[]): Promise<void> {
    const payloads: string[] = [];
    let batch: string[] = [];
    let size = 2;
    for (const event of events) {
      const one = JSON.stringify(ZRealtimeEvent.parse(event));
      if (batch.length > 0 && size + one.length + 1 > NOTIFY_PAYLOAD_BYTES) {
        payloads.push(`[${batch.join(',')}]`);
        batch = [];
        size = 2;
      }
      batch.push(one);
      size += one.length + 1;
    }
    if (batch.length > 0) payloads.push(`[${batch.join(',')}]`);
    if (payloads.length === 0) return;
    await repo.notifyEach(client, REALTIME_CHANNEL, payloads);
  }

  deps.listener.on(REALTIME_CHANNEL, deliver);
  // A signed-out or revoked session loses its sockets now, not at the next re-check.
  deps.listener.on(SESSIONS_CHANNEL, (userId) => {
    for (const conn of all) if (conn.userId === userId) void stillAdmitted(conn);
  });
  // Events sent while the listener was down are lost to this instance: close every socket so
  // each browser reconnects (once the listener is back) and refetches what it missed.
  deps.listener.onDisconnect(() => {
    for (const conn of all) conn.socket.close(REALTIME_CLOSE.goingAway, 'reconnect');
  });

  function subscribe(conn: Connection) {
    conn.subscribed = true;
    if (conn.isAdmin) admins.add(conn);
    else {
      const set = byUser.get(conn.userId) ?? new Set();
      set.add(conn);
      byUser.set(conn.userId, set);
    }
    void presence.join(conn.userId).then(() => {
      send(conn, JSON.stringify({ type: 'ready' } satisfies TRealtimeServerMessage));
    });
  }

  function forget(conn: Connection) {
    if (!all.delete(conn)) return;
    clearTimeout(conn.timer);
    admins.delete(conn);
    const set = byUser.get(conn.userId);
    set?.delete(conn);
    if (set?.size === 0) byUser.delete(conn.userId);
    if (conn.subscribed) presence.leave(conn.userId);
  }

  /**
   * Looks the session up again; closes the socket when it no longer admits it. A look-up
   * that fails (the database is away) proves nothing about the session: `unknown`, and the
   * socket is not told it is unauthorized, which would make the browser sign the user out.
   */
  async function stillAdmitted(conn: Connection): Promise<boolean | 'unknown'> {
    let session: SessionContext | null = null;
    try {
      session = await deps.sessions.findByToken(conn.token);
    } catch (err) {
      deps.log.warn({ err: String(err) }, 'realtime session check failed');
      return 'unknown';
    }
    // A changed role closes the socket too: the browser reconnects with the right one.
    if (admits(session) && session.userId === conn.userId && session.isAdmin === conn.isAdmin) {
      return true;
    }
    conn.socket.close(REALTIME_CLOSE.unauthorized, 'unauthorized');
    return false;
  }

  function scheduleRecheck(conn: Connection) {
    conn.timer = setTimeout(
      async () => {
        if (!all.has(conn)) return;
        if (!conn.alive) {
          conn.socket.terminate();
          return;
        }
        conn.alive = false;
        conn.socket.ping();
        // Unknown (database away): checked again at the next round.
        if ((await stillAdmitted(conn)) !== false) scheduleRecheck(conn);
        // Jittered, so sockets that opened together do not look their sessions up together.
      },
      (timing.recheckMs * (750 + randomInt(500))) / 1000,
    );
    conn.timer.unref();
  }

  return {
    /** Timings; tests shorten them. */
    timing,

    /** Whether the user has a socket open on any instance (for "mail only when away"). */
    isOnline: (userId: string) => presence.isOnline(userId),

    /**
     * Announces an event to every instance. On a transaction's client it is sent only if
     * that transaction commits.
     */
    async publish(client: Queryable, event: TRealtimeEvent): Promise<void> {
      const payload = JSON.stringify(ZRealtimeEvent.parse(event));
      await repo.notify(client, REALTIME_CHANNEL, payload);
    },

    publishMany,

    /**
     * Takes a socket the upgrade let through (cookie of a 2FA-passed session, own Origin).
     * It receives nothing until it sends `subscribe`, which must come within
     * `authTimeoutMs`; the session is checked again then and every `recheckMs`.
     */
    accept(socket: WebSocket, token: string, session: SessionContext): void {
      if (restarting) {
        socket.close(REALTIME_CLOSE.restarting, 'server restarting');
        return;
      }
      const conn: Connection = {
        socket,
        token,
        userId: session.userId,
        isAdmin: session.isAdmin,
        subscribed: false,
        alive: true,
        timer: setTimeout(() => {
          if (!conn.subscribed) socket.close(REALTIME_CLOSE.unauthorized, 'subscribe timeout');
        }, timing.authTimeoutMs),
      };
      conn.timer.unref();
      all.add(conn);
      socket.on('close', () => forget(conn));
      socket.on('pong', () => {
        conn.alive = true;
      });
      socket.on('message', async (data, isBinary) => {
        let parsed: unknown = null;
        try {
          parsed = isBinary ? null : JSON.parse(String(data));
        } catch {
          parsed = null;
        }
        const message = ZRealtimeClientMessage.safeParse(parsed);
        if (!message.success) {
          socket.close(REALTIME_CLOSE.badMessage, 'bad message');
          return;
        }
        if (conn.subscribed) return;
        if (!deps.listener.listening) {
          // Without the listener no event would arrive: let the browser try again later.
          socket.close(REALTIME_CLOSE.tryAgainLater, 'try again later');
          return;
        }
        const admitted = await stillAdmitted(conn);
        if (admitted === 'unknown') socket.close(REALTIME_CLOSE.tryAgainLater, 'try again later');
        if (admitted !== true || !all.has(conn)) return;
        clearTimeout(conn.timer);
        subscribe(conn);
        scheduleRecheck(conn);
      });
    },

    /** Sockets open on this instance (for the benchmark and tests). */
    get connections(): number {
      return all.size;
    },

    /**
     * The server is stopping gracefully: every socket gets a close frame saying so, from
     * which the browser reconnects (to this server once it is back, or another instance).
     * Resolves when all are closed; a peer that does not answer its close frame within 2 s
     * is cut, so it cannot hold the stop up.
     */
    async closeForRestart(): Promise<void> {
      restarting = true;
      const closing = [...all].map(
        (conn) =>
          new Promise<void>((resolve) => {
            if (conn.socket.readyState === conn.socket.CLOSED) return resolve();
            conn.socket.once('close', () => resolve());
            conn.socket.close(REALTIME_CLOSE.restarting, 'server restarting');
          }),
      );
      const cut = setTimeout(() => {
        for (const conn of all) conn.socket.terminate();
      }, 2_000);
      cut.unref();
      await Promise.all(closing);
      clearTimeout(cut);
    },

    async stop(): Promise<void> {
      for (const conn of all) conn.socket.close(REALTIME_CLOSE.goingAway, 'server stopping');
      await presence.stop();
    },
  };
}

export type RealtimeHub = ReturnType<typeof createRealtimeHub>;
