import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionContext, SessionsRepository } from '../modules/sessions/sessions.repository';

export const SESSION_COOKIE = 'coffer_session';

// Writing last_seen_at on every request would double the database work of a read; once a
// minute is enough for a sliding expiry measured in days.
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
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: httpsPublic || request.protocol === 'https',
        maxAge: 30 * 24 * 3600,
      });
    },
    clear(reply) {
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  };
}

/** Reads the session cookie once per request and puts what it proves on `request.session`. */
export function registerSession(app: FastifyInstance, sessions: SessionsRepository): void {
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 100) return;
    const session = await sessions.findByToken(token);
    if (!session) return;
    request.session = session;
    if (Date.now() - session.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      await sessions.touch(session.sessionId);
    }
  });
}
