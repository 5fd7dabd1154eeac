import { randomInt } from 'node:crypto';
import {
  REALTIME_CLOSE,
  type TRealtimeServerMessage,
  ZRealtimeClientMessage,
} from '@coffer/shared';
import type { WebSocket } from 'ws';
import type { SessionContext } from '../sessions';
import { admits, type Connection, type RealtimeContext, send } from './realtime-context';

/**
 * Takes a socket the upgrade let through (cookie of a 2FA-passed session, own Origin).
 * It receives nothing until it sends `subscribe`, which must come within
 * `authTimeoutMs`; the session is checked again then and every `recheckMs`.
 */
export function accept(
  ctx: RealtimeContext,
  socket: WebSocket,
  token: string,
  session: SessionContext,
): void {
  if (ctx.restarting) {
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
    }, ctx.timing.authTimeoutMs),
  };
  conn.timer.unref();
  ctx.all.add(conn);
  socket.on('close', () => forget(ctx, conn));
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
    if (!ctx.deps.listener.listening) {
      // Without the listener no event would arrive: let the browser try again later.
      socket.close(REALTIME_CLOSE.tryAgainLater, 'try again later');
      return;
    }
    const admitted = await stillAdmitted(ctx, conn);
    if (admitted === 'unknown') socket.close(REALTIME_CLOSE.tryAgainLater, 'try again later');
    if (admitted !== true || !ctx.all.has(conn)) return;
    clearTimeout(conn.timer);
    subscribe(ctx, conn);
    scheduleRecheck(ctx, conn);
  });
}

/**
 * Looks the session up again; closes the socket when it no longer admits it. A look-up
 * that fails (the database is away) proves nothing about the session: `unknown`, and the
 * socket is not told it is unauthorized, which would make the browser sign the user out.
 */
export async function stillAdmitted(
  ctx: RealtimeContext,
  conn: Connection,
): Promise<boolean | 'unknown'> {
  let session: SessionContext | null = null;
  try {
    session = await ctx.deps.sessions.findByToken(conn.token);
  } catch (err) {
    ctx.deps.log.warn({ err: String(err) }, 'realtime session check failed');
    return 'unknown';
  }
  // A changed role closes the socket too: the browser reconnects with the right one.
  if (admits(session) && session.userId === conn.userId && session.isAdmin === conn.isAdmin) {
    return true;
  }
  conn.socket.close(REALTIME_CLOSE.unauthorized, 'unauthorized');
  return false;
}

function subscribe(ctx: RealtimeContext, conn: Connection) {
  conn.subscribed = true;
  if (conn.isAdmin) ctx.admins.add(conn);
  else {
    const set = ctx.byUser.get(conn.userId) ?? new Set();
    set.add(conn);
    ctx.byUser.set(conn.userId, set);
  }
  void ctx.presence.join(conn.userId).then(() => {
    send(conn, JSON.stringify({ type: 'ready' } satisfies TRealtimeServerMessage));
  });
}

function forget(ctx: RealtimeContext, conn: Connection) {
  if (!ctx.all.delete(conn)) return;
  clearTimeout(conn.timer);
  ctx.admins.delete(conn);
  const set = ctx.byUser.get(conn.userId);
  set?.delete(conn);
  if (set?.size === 0) ctx.byUser.delete(conn.userId);
  if (conn.subscribed) ctx.presence.leave(conn.userId);
}

function scheduleRecheck(ctx: RealtimeContext, conn: Connection) {
  conn.timer = setTimeout(
    async () => {
      if (!ctx.all.has(conn)) return;
      if (!conn.alive) {
        conn.socket.terminate();
        return;
      }
      conn.alive = false;
      conn.socket.ping();
      // Unknown (database away): checked again at the next round.
      if ((await stillAdmitted(ctx, conn)) !== false) scheduleRecheck(ctx, conn);
      // Jittered, so sockets that opened together do not look their sessions up together.
    },
    (ctx.timing.recheckMs * (750 + randomInt(500))) / 1000,
  );
  conn.timer.unref();
}
