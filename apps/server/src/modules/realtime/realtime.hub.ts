import { REALTIME_CLOSE } from '@coffer/shared';
import type { WebSocket } from 'ws';
import type { SessionContext } from '../sessions';
import { createPresence } from './presence';
import { accept, stillAdmitted } from './realtime-connections';
import type { RealtimeContext, RealtimeDeps } from './realtime-context';
import { deliver, publish, publishMany, REALTIME_CHANNEL } from './realtime-delivery';

export { REALTIME_CHANNEL } from './realtime-delivery';

/**
 * Where the database announces ended sessions (a trigger on `sessions`, migration 0003):
 * the payload is the user's id, and that user's sockets are checked again at once.
 */
export const SESSIONS_CHANNEL = 'coffer_sessions';

/**
 * The realtime hub of one server instance (docs/architecture.md). Events are published with
 * `pg_notify` on the caller's client, so an event written inside a transaction is sent
 * only if it commits; every instance LISTENs on the one channel and hands each event to the
 * sockets allowed to read it: a customer's sockets get the events about that customer, an
 * admin's sockets get all of them.
 *
 * Composed of parts over one context (`realtime-context.ts`): publishing and delivering
 * events (`realtime-delivery.ts`), and each socket from its upgrade to its close, with its
 * session checked again (`realtime-connections.ts`).
 */
export function createRealtimeHub(deps: RealtimeDeps) {
  const ctx: RealtimeContext = {
    deps,
    timing: { authTimeoutMs: 5_000, recheckMs: 30_000 },
    presence: createPresence(deps),
    all: new Set(),
    byUser: new Map(),
    admins: new Set(),
    restarting: false,
  };
  const { all, presence } = ctx;

  deps.listener.on(REALTIME_CHANNEL, (payload) => deliver(ctx, payload));
  // A signed-out or revoked session loses its sockets now, not at the next re-check.
  deps.listener.on(SESSIONS_CHANNEL, (userId) => {
    for (const conn of all) if (conn.userId === userId) void stillAdmitted(ctx, conn);
  });
  // Events sent while the listener was down are lost to this instance: close every socket so
  // each browser reconnects (once the listener is back) and refetches what it missed.
  deps.listener.onDisconnect(() => {
    for (const conn of all) conn.socket.close(REALTIME_CLOSE.goingAway, 'reconnect');
  });

  return {
    /** Timings; tests shorten them. */
    timing: ctx.timing,

    /** Whether the user has a socket open on any instance (for "mail only when away"). */
    isOnline: (userId: string) => presence.isOnline(userId),

    publish,

    publishMany,

    /** Takes a socket the upgrade let through (realtime-connections.ts). */
    accept: (socket: WebSocket, token: string, session: SessionContext): void =>
      accept(ctx, socket, token, session),

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
      ctx.restarting = true;
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
