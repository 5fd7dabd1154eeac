import { randomToken, sha256Hex } from '@server/lib/crypto';
import type pg from 'pg';
import { limitsOf, type SessionLimits } from './session-limits';

/** What one request knows about its session, read with a single indexed query. */
export type SessionContext = {
  sessionId: string;
  userId: string;
  email: string;
  isAdmin: boolean;
  registeredAt: Date;
  twoFactorRequired: boolean;
  twoFactorEnabled: boolean;
  twoFactorVerifiedAt: Date | null;
  phraseUnlockedUntil: Date | null;
  hasRecoveryPhrase: boolean;
  lastSeenAt: Date;
  createdAt: Date;
  /** The limits in force for this session as read now, and when it ends under them. */
  expiry: SessionExpiry;
};

export type SessionExpiry = {
  idleMinutes: number;
  /** The idle deadline, never later than the absolute one. */
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
  /** Until idleExpiresAt, counted by the database's clock. */
  secondsLeft: number;
};

type Row = {
  session_id: string;
  user_id: string;
  email: string;
  is_admin: boolean;
  registered_at: Date;
  two_factor_required: boolean;
  two_factor_enabled: boolean;
  two_factor_verified_at: Date | null;
  phrase_unlocked_until: Date | null;
  has_recovery_phrase: boolean;
  last_seen_at: Date;
  created_at: Date;
  idle_seconds: number;
  idle_left: number;
  absolute_left: number;
};

// A named statement: PostgreSQL parses and plans it once per connection, which keeps the
// per-request cost of authentication at one cheap round trip.
export const SESSION_LOOKUP = {
  name: 'session_lookup',
  text: `SELECT s.id AS session_id, s.user_id, u.email, (a.user_id IS NOT NULL) AS is_admin,
       p.registration_date AS registered_at, p.two_factor_required, p.two_factor_enabled,
       s.two_factor_verified_at, s.phrase_unlocked_until,
       EXISTS (SELECT 1 FROM user_seed_phrases sp WHERE sp.user_id = s.user_id) AS has_recovery_phrase,
       s.last_seen_at, s.created_at, l.idle_seconds,
       EXTRACT(EPOCH FROM LEAST(s.expires_at, s.last_seen_at + make_interval(secs => l.idle_seconds),
         s.created_at + make_interval(secs => $4)) - now())::float8 AS idle_left,
       EXTRACT(EPOCH FROM s.created_at + make_interval(secs => $4) - now())::float8 AS absolute_left
  FROM sessions s
  JOIN users u ON u.id = s.user_id
  JOIN user_profiles p ON p.id = s.user_id
  LEFT JOIN admin_users a ON a.user_id = s.user_id
  CROSS JOIN LATERAL (SELECT CASE WHEN a.user_id IS NULL THEN $2::int ELSE $3::int END AS idle_seconds) l
 WHERE s.token_hash = $1
   -- A frozen account, or one waiting for its owner's new password after a freeze, has no
   -- session whatever rows remain: the freeze ends them, and this holds if one survived.
   AND p.frozen_at IS NULL AND p.new_password_required_at IS NULL`,
};

/** The session rows past the limits in force, whatever their stored expires_at says. */
const DELETE_EXPIRED = `DELETE FROM sessions s
  WHERE s.expires_at <= now()
     OR s.created_at + make_interval(secs => $3) <= now()
     OR s.last_seen_at + make_interval(secs => CASE
          WHEN EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = s.user_id) THEN $2::int
          ELSE $1::int END) <= now()`;

/** Statements on the caller's connection, beside the factory bound to the pool below. */
export const userSessionsRepository = {
  /** Deletes every session of a user but `except` (null: all of them); how many went. */
  async deleteAll(
    client: Pick<pg.PoolClient, 'query'>,
    userId: string,
    except: string | null,
  ): Promise<number> {
    const res = await client.query(
      'DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2',
      [userId, except],
    );
    return res.rowCount ?? 0;
  },
};

/**
 * Sessions end after `idle` seconds without a user-initiated request (customers and admins
 * each have their own setting) and `absolute` seconds after sign-in whatever happens
 * (docs/decisions/0013). The limits are read from the cached settings at every look-up and
 * compared with last_seen_at and created_at, so a changed setting applies at once to
 * sessions that already exist; the stored expires_at is only ever an earlier bound.
 */
export function createSessionsRepository(
  pool: pg.Pool,
  settings: { all(): Promise<Map<string, string>> },
) {
  const limits = async (): Promise<SessionLimits> => limitsOf(await settings.all());

  async function revoke(sessionId: string): Promise<void> {
    await pool.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
  }

  return {
    /**
     * The session the token opens, or null. A session past its limits is deleted here,
     * when it is presented: its row's trigger then closes its sockets.
     */
    async findByToken(token: string): Promise<SessionContext | null> {
      const l = await limits();
      const { rows } = await pool.query<Row>({
        ...SESSION_LOOKUP,
        values: [sha256Hex(token), l.idleSecondsCustomer, l.idleSecondsAdmin, l.absoluteSeconds],
      });
      const r = rows[0];
      if (!r) return null;
      if (r.idle_left <= 0 || r.absolute_left <= 0) {
        await revoke(r.session_id);
        return null;
      }
      const now = Date.now();
      return {
        sessionId: r.session_id,
        userId: r.user_id,
        email: r.email,
        isAdmin: r.is_admin,
        registeredAt: r.registered_at,
        twoFactorRequired: r.two_factor_required,
        twoFactorEnabled: r.two_factor_enabled,
        twoFactorVerifiedAt: r.two_factor_verified_at,
        phraseUnlockedUntil: r.phrase_unlocked_until,
        hasRecoveryPhrase: r.has_recovery_phrase,
        lastSeenAt: r.last_seen_at,
        createdAt: r.created_at,
        expiry: {
          idleMinutes: Math.round(r.idle_seconds / 60),
          idleExpiresAt: new Date(now + r.idle_left * 1000),
          absoluteExpiresAt: new Date(now + r.absolute_left * 1000),
          secondsLeft: Math.floor(r.idle_left),
        },
      };
    },

    /** Creates a session and returns its token, which only the cookie will hold. */
    async create(input: {
      userId: string;
      twoFactorVerified: boolean;
      ip: string;
      userAgent: string | undefined;
    }) {
      const token = randomToken();
      const l = await limits();
      // expires_at under the limits of this moment and the user's role: a bound for the
      // clean-up job and for lists of sessions. The look-up compares last_seen_at and
      // created_at with the limits in force itself.
      await pool.query(
        `INSERT INTO sessions (token_hash, user_id, expires_at, two_factor_verified_at, ip, user_agent)
         VALUES ($1, $2, now() + make_interval(secs => LEAST($8::int,
                   CASE WHEN EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = $2)
                        THEN $7::int ELSE $3::int END)),
                 CASE WHEN $4 THEN now() END, $5, $6)`,
        [
          sha256Hex(token),
          input.userId,
          l.idleSecondsCustomer,
          input.twoFactorVerified,
          input.ip,
          input.userAgent?.slice(0, 300) ?? null,
          l.idleSecondsAdmin,
          l.absoluteSeconds,
        ],
      );
      return token;
    },

    /**
     * Slides the idle expiry forward, never past the absolute lifetime, and returns the
     * session with its new deadline. Only user-initiated requests call it (plugins/session.ts).
     */
    async touch(session: SessionContext): Promise<SessionContext> {
      const idleSeconds = session.expiry.idleMinutes * 60;
      const { rows } = await pool.query<{ last_seen_at: Date; idle_left: number }>(
        `UPDATE sessions SET last_seen_at = now(),
           expires_at = LEAST(now() + make_interval(secs => $2), created_at + make_interval(secs => $3))
         WHERE id = $1
         RETURNING last_seen_at, EXTRACT(EPOCH FROM expires_at - now())::float8 AS idle_left`,
        [session.sessionId, idleSeconds, (await limits()).absoluteSeconds],
      );
      const r = rows[0];
      if (!r) return session;
      return {
        ...session,
        lastSeenAt: r.last_seen_at,
        expiry: {
          ...session.expiry,
          idleExpiresAt: new Date(Date.now() + r.idle_left * 1000),
          secondsLeft: Math.floor(r.idle_left),
        },
      };
    },

    /** Gives the session a new token (a new session id for the browser) and marks 2FA passed. */
    async rotateAfterTwoFactor(sessionId: string): Promise<string> {
      const token = randomToken();
      await pool.query(
        'UPDATE sessions SET token_hash = $2, two_factor_verified_at = now() WHERE id = $1',
        [sessionId, sha256Hex(token)],
      );
      return token;
    },

    async unlockPhrase(sessionId: string, seconds: number): Promise<void> {
      await pool.query(
        'UPDATE sessions SET phrase_unlocked_until = now() + make_interval(secs => $2) WHERE id = $1',
        [sessionId, seconds],
      );
    },

    revoke,

    async deleteExpired(): Promise<number> {
      const l = await limits();
      const res = await pool.query(DELETE_EXPIRED, [
        l.idleSecondsCustomer,
        l.idleSecondsAdmin,
        l.absoluteSeconds,
      ]);
      return res.rowCount ?? 0;
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
