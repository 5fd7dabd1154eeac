import type { TStaffRole } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { sessions, userProfiles, users } from '@server/db/schema/index';
import type pg from 'pg';
import type { SessionLimits } from './session-limits';

/** What one request knows about its session, read with a single indexed query. */
export type SessionContext = {
  sessionId: string;
  userId: string;
  email: string;
  isAdmin: boolean;
  /** The staff member's roles as of this request (docs/roles.md); empty for a customer. */
  staffRoles: TStaffRole[];
  registeredAt: Date;
  twoFactorRequired: boolean;
  twoFactorEnabled: boolean;
  twoFactorVerifiedAt: Date | null;
  phraseUnlockedUntil: Date | null;
  hasRecoveryPhrase: boolean;
  /** No sign-in of the account is logged before this session's: its very first one. */
  firstSignIn: boolean;
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

/** The look-up's row: the session's, its user's and profile's columns, and the limits' sums. */
type LookupRow = ColumnsOf<
  typeof sessions,
  'user_id' | 'two_factor_verified_at' | 'phrase_unlocked_until' | 'last_seen_at' | 'created_at'
> &
  ColumnsOf<typeof users, 'email'> &
  ColumnsOf<typeof userProfiles, 'two_factor_required' | 'two_factor_enabled'> & {
    session_id: string;
    is_admin: boolean;
    staff_roles: TStaffRole[] | null;
    registered_at: Date;
    has_recovery_phrase: boolean;
    first_sign_in: boolean;
    idle_seconds: number;
    idle_left: number;
    absolute_left: number;
  };

/** A pool, or the connection of an open transaction. */
type Queryable = Pick<pg.PoolClient, 'query'>;

// A named statement: PostgreSQL parses and plans it once per connection, which keeps the
// per-request cost of authentication at one cheap round trip.
export const SESSION_LOOKUP = {
  name: 'session_lookup',
  text: `SELECT s.id AS session_id, s.user_id, u.email, (a.user_id IS NOT NULL) AS is_admin, a.roles AS staff_roles,
       p.registration_date AS registered_at, p.two_factor_required, p.two_factor_enabled,
       s.two_factor_verified_at, s.phrase_unlocked_until,
       EXISTS (SELECT 1 FROM user_seed_phrases sp WHERE sp.user_id = s.user_id) AS has_recovery_phrase,
       -- The sign-in history is append-only; this session's own sign-in is logged after the
       -- session is made, so only earlier ones count (one probe of the user's events index).
       NOT EXISTS (SELECT 1 FROM security_events e
                    WHERE e.user_id = s.user_id AND e.created_at < s.created_at
                      AND e.kind = 'sign-in') AS first_sign_in,
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

/**
 * The only code that touches `sessions` for the session's own life: the look-up, sign-in,
 * activity, 2FA, the phrase unlock and the sign-outs. The limits in force (from the
 * settings) are passed in by the caller, read at every call (sessions.service.ts).
 */
export const sessionsRepository = {
  /**
   * The session whose token hashes to `tokenHash`, under `limits` as of now, and whether it
   * is still within them; null when there is none.
   */
  async findByTokenHash(
    db: Queryable,
    tokenHash: string,
    limits: SessionLimits,
  ): Promise<{ session: SessionContext; live: boolean } | null> {
    const { rows } = await db.query<LookupRow>({
      ...SESSION_LOOKUP,
      values: [
        tokenHash,
        limits.idleSecondsCustomer,
        limits.idleSecondsAdmin,
        limits.absoluteSeconds,
      ],
    });
    const r = rows[0];
    if (!r) return null;
    const now = Date.now();
    return {
      live: r.idle_left > 0 && r.absolute_left > 0,
      session: {
        sessionId: r.session_id,
        userId: r.user_id,
        email: r.email,
        isAdmin: r.is_admin,
        staffRoles: r.staff_roles ?? [],
        registeredAt: r.registered_at,
        twoFactorRequired: r.two_factor_required,
        twoFactorEnabled: r.two_factor_enabled,
        twoFactorVerifiedAt: r.two_factor_verified_at,
        phraseUnlockedUntil: r.phrase_unlocked_until,
        hasRecoveryPhrase: r.has_recovery_phrase,
        firstSignIn: r.first_sign_in,
        lastSeenAt: r.last_seen_at,
        createdAt: r.created_at,
        expiry: {
          idleMinutes: Math.round(r.idle_seconds / 60),
          idleExpiresAt: new Date(now + r.idle_left * 1000),
          absoluteExpiresAt: new Date(now + r.absolute_left * 1000),
          secondsLeft: Math.floor(r.idle_left),
        },
      },
    };
  },

  /**
   * A new session. expires_at under `limits` of this moment and the user's role: a bound
   * for the clean-up job and for lists of sessions. The look-up compares last_seen_at and
   * created_at with the limits in force itself.
   */
  async insert(
    db: Queryable,
    input: {
      tokenHash: string;
      userId: string;
      twoFactorVerified: boolean;
      ip: string;
      userAgent: string | null;
    },
    limits: SessionLimits,
  ): Promise<void> {
    await db.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at, two_factor_verified_at, ip, user_agent)
       VALUES ($1, $2, now() + make_interval(secs => LEAST($8::int,
                 CASE WHEN EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = $2)
                      THEN $7::int ELSE $3::int END)),
               CASE WHEN $4 THEN now() END, $5, $6)`,
      [
        input.tokenHash,
        input.userId,
        limits.idleSecondsCustomer,
        input.twoFactorVerified,
        input.ip,
        input.userAgent,
        limits.idleSecondsAdmin,
        limits.absoluteSeconds,
      ],
    );
  },

  /**
   * Slides the idle expiry `idleSeconds` forward, never past `absoluteSeconds` from sign-in;
   * the new last use and the seconds now left, or null when the session is gone.
   */
  async touch(
    db: Queryable,
    sessionId: string,
    idleSeconds: number,
    absoluteSeconds: number,
  ): Promise<{ lastSeenAt: Date; idleLeft: number } | null> {
    const { rows } = await db.query<
      ColumnsOf<typeof sessions, 'last_seen_at'> & { idle_left: number }
    >(
      `UPDATE sessions SET last_seen_at = now(),
         expires_at = LEAST(now() + make_interval(secs => $2), created_at + make_interval(secs => $3))
       WHERE id = $1
       RETURNING last_seen_at, EXTRACT(EPOCH FROM expires_at - now())::float8 AS idle_left`,
      [sessionId, idleSeconds, absoluteSeconds],
    );
    const r = rows[0];
    return r ? { lastSeenAt: r.last_seen_at, idleLeft: r.idle_left } : null;
  },

  /** A new token hash for the session (a new session id for the browser), 2FA passed. */
  async passTwoFactor(db: Queryable, sessionId: string, tokenHash: string): Promise<void> {
    await db.query(
      'UPDATE sessions SET token_hash = $2, two_factor_verified_at = now() WHERE id = $1',
      [sessionId, tokenHash],
    );
  },

  async unlockPhrase(db: Queryable, sessionId: string, seconds: number): Promise<void> {
    await db.query(
      'UPDATE sessions SET phrase_unlocked_until = now() + make_interval(secs => $2) WHERE id = $1',
      [sessionId, seconds],
    );
  },

  async revoke(db: Queryable, sessionId: string): Promise<void> {
    await db.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
  },

  /** Deletes every session of a user but `except` (null: all of them); how many went. */
  async deleteAll(db: Queryable, userId: string, except: string | null): Promise<number> {
    const res = await db.query(
      'DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2',
      [userId, except],
    );
    return res.rowCount ?? 0;
  },

  /** The session rows past `limits`, whatever their stored expires_at says; how many went. */
  async deleteExpired(db: Queryable, limits: SessionLimits): Promise<number> {
    const res = await db.query(DELETE_EXPIRED, [
      limits.idleSecondsCustomer,
      limits.idleSecondsAdmin,
      limits.absoluteSeconds,
    ]);
    return res.rowCount ?? 0;
  },
};
