import type { PgListener } from '@server/lib/pg-listener';
import { needsTwoFactor } from '@server/plugins/gate';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { SessionContext, Sessions } from '../sessions';
import type { Presence } from './presence';

export type RealtimeTiming = {
  /** How long a new socket may stay without sending `subscribe`. */
  authTimeoutMs: number;
  /** How often a socket's session is looked up again (and the socket pinged). */
  recheckMs: number;
};

export type RealtimeDeps = {
  listener: PgListener;
  pool: pg.Pool;
  connectionString: string;
  sessions: Sessions;
  log: Logger;
};

export type Connection = {
  socket: WebSocket;
  token: string;
  userId: string;
  isAdmin: boolean;
  subscribed: boolean;
  alive: boolean;
  timer: NodeJS.Timeout;
};

/**
 * What the parts of one instance's hub share, built once by `createRealtimeHub`: the open
 * sockets (all of them, a customer's by user, the admins'), presence, the timings, and
 * whether the server is stopping.
 */
export type RealtimeContext = {
  deps: RealtimeDeps;
  timing: RealtimeTiming;
  presence: Presence;
  all: Set<Connection>;
  byUser: Map<string, Set<Connection>>;
  admins: Set<Connection>;
  restarting: boolean;
};

/** Whether a session may hold a realtime socket: present and past the gate of */
export function admits(session: SessionContext | null): session is SessionContext {
  return session !== null && !needsTwoFactor(session);
}

export function send(conn: Connection, message: string): void {
  if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(message);
}
