import { SESSION_BACKGROUND_HEADER, SESSION_EXPIRES_HEADER } from '@coffer/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionContext, Sessions } from '../modules/sessions';

export const SESSION_COOKIE = 'coffer_session';

// Writing last_seen_at on every request would double the database work of a read; once a
// minute is enough: the shortest idle timeout allowed is 5 minutes, and the browser's
// warning comes a minute before the deadline, when the last write is older than that.
const TOUCH_AFTER_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionContext | null;
  }
}

export type SessionCookies = {
  set(reply: FastifyReply, request: FastifyRequest, token: string): void;
  clear(reply: FastifyReply): void;
};

export function sessionCookies(publicUrl: string): SessionCookies {
  const httpsPublic = publicUrl.startsWith('https://');
  return {
    set(reply, request, token) {
      // The cookie may outlive the session: the server decides when a session ends
      // (sessions.repository.ts), at most the longest absolute lifetime allowed.
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: httpsPublic || request.protocol === 'https',
        maxAge: 7 * 24 * 3600,
      });
    },
    clear(reply) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  };
}

/**
 * Reads the session cookie once per request and puts what it proves on `request.session`.
 *
 * Only a user-initiated request slides the idle timer: the web app marks the requests it
 * makes on its own (polls, refetches, its own expiry checks) with `X-Coffer-Background: 1`,
 * and those leave last_seen_at alone, so an open tab cannot keep a session alive forever.
 * Realtime sockets never slide it either, not even when they connect. Every response to a request with a live session
 * says how long it has left (`X-Session-Expires-In`, seconds), so the browser can warn.
 */
export function registerSession(app: FastifyInstance, sessions: Sessions): void {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 100) return;
    let session = await sessions.findByToken(token);
    if (!session) return;
    // A realtime socket (re)connects by itself after a network change or a restart, and
    // a browser cannot add headers to it: its upgrade request never counts as activity.
    const background =
      request.headers[SESSION_BACKGROUND_HEADER] === '1' ||
      request.headers.upgrade?.toLowerCase() === 'websocket';
    if (!background && Date.now() - session.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      session = await sessions.touch(session);
    }
    request.session = session;
    reply.header(SESSION_EXPIRES_HEADER, String(session.expiry.secondsLeft));
  });
}
