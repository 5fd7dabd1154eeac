import { randomToken, sha256Hex } from '@server/lib/crypto';
import type pg from 'pg';
import { limitsOf, type SessionLimits } from './session-limits';
import { sessionsRepository as repo, type SessionContext } from './sessions.repository';

/**
 * Sessions end after `idle` seconds without a user-initiated request (customers and admins
 * each have their own setting) and `absolute` seconds after sign-in whatever happens
 * (docs/decisions/0013). The limits are read from the cached settings at every look-up and
 * compared with last_seen_at and created_at, so a changed setting applies at once to
 * sessions that already exist; the stored expires_at is only ever an earlier bound.
 */
export function createSessions(pool: pg.Pool, settings: { all(): Promise<Map<string, string>> }) {
  const limits = async (): Promise<SessionLimits> => limitsOf(await settings.all());

  return {
    /**
     * The session the token opens, or null. A session past its limits is deleted here,
     * when it is presented: its row's trigger then closes its sockets.
     */
    async findByToken(token: string): Promise<SessionContext | null> {
      const found = await repo.findByTokenHash(pool, sha256Hex(token), await limits());
      if (!found) return null;
      if (!found.live) {
        await repo.revoke(pool, found.session.sessionId);
        return null;
      }
      return found.session;
    },

    /** Creates a session and returns its token, which only the cookie will hold. */
    async create(input: {
      userId: string;
      twoFactorVerified: boolean;
      ip: string;
      userAgent: string | undefined;
    }): Promise<string> {
      const token = randomToken();
      await repo.insert(
        pool,
        {
          tokenHash: sha256Hex(token),
          userId: input.userId,
          twoFactorVerified: input.twoFactorVerified,
          ip: input.ip,
          userAgent: input.userAgent?.slice(0, 300) ?? null,
        },
        await limits(),
      );
      return token;
    },

    /**
     * Slides the idle expiry forward, never past the absolute lifetime, and returns the
     * session with its new deadline. Only user-initiated requests call it (plugins/session.ts).
     */
    async touch(session: SessionContext): Promise<SessionContext> {
      const touched = await repo.touch(
        pool,
        session.sessionId,
        session.expiry.idleMinutes * 60,
        (await limits()).absoluteSeconds,
      );
      if (!touched) return session;
      return {
        ...session,
        lastSeenAt: touched.lastSeenAt,
        expiry: {
          ...session.expiry,
          idleExpiresAt: new Date(Date.now() + touched.idleLeft * 1000),
          secondsLeft: Math.floor(touched.idleLeft),
        },
      };
    },

    /** Gives the session a new token (a new session id for the browser) and marks 2FA passed. */
    async rotateAfterTwoFactor(sessionId: string): Promise<string> {
      const token = randomToken();
      await repo.passTwoFactor(pool, sessionId, sha256Hex(token));
      return token;
    },

    unlockPhrase: (sessionId: string, seconds: number): Promise<void> =>
      repo.unlockPhrase(pool, sessionId, seconds),

    revoke: (sessionId: string): Promise<void> => repo.revoke(pool, sessionId),

    async deleteExpired(): Promise<number> {
      return repo.deleteExpired(pool, await limits());
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
