import type pg from 'pg';
import { randomToken, sha256Hex } from '../../lib/crypto';

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
};

// A named statement: PostgreSQL parses and plans it once per connection, which keeps the
// per-request cost of authentication at one cheap round trip.
export const SESSION_LOOKUP = {
  name: 'session_lookup',
  text: `SELECT s.id AS session_id, s.user_id, u.email, (a.user_id IS NOT NULL) AS is_admin,
       p.registration_date AS registered_at, p.two_factor_required, p.two_factor_enabled,
       s.two_factor_verified_at, s.phrase_unlocked_until,
       EXISTS (SELECT 1 FROM user_seed_phrases sp WHERE sp.user_id = s.user_id) AS has_recovery_phrase,
       s.last_seen_at, s.created_at
  FROM sessions s
  JOIN users u ON u.id = s.user_id
  JOIN user_profiles p ON p.id = s.user_id
  LEFT JOIN admin_users a ON a.user_id = s.user_id
 WHERE s.token_hash = $1 AND s.expires_at > now()`,
};

export const IDLE_TIMEOUT_SECONDS = 7 * 24 * 3600;
export const ABSOLUTE_TIMEOUT_SECONDS = 30 * 24 * 3600;

export function createSessionsRepository(pool: pg.Pool) {
  return {
    async findByToken(token: string): Promise<SessionContext | null> {
      const { rows } = await pool.query<Row>({ ...SESSION_LOOKUP, values: [sha256Hex(token)] });
      const r = rows[0];
      if (!r) return null;
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
      await pool.query(
        `INSERT INTO sessions (token_hash, user_id, expires_at, two_factor_verified_at, ip, user_agent)
         VALUES ($1, $2, now() + make_interval(secs => $3), CASE WHEN $4 THEN now() END, $5, $6)`,
        [
          sha256Hex(token),
          input.userId,
          IDLE_TIMEOUT_SECONDS,
          input.twoFactorVerified,
          input.ip,
          input.userAgent?.slice(0, 300) ?? null,
        ],
      );
      return token;
    },

    /** Slides the idle expiry forward, never past the absolute lifetime. */
    async touch(sessionId: string): Promise<void> {
      await pool.query(
        `UPDATE sessions SET last_seen_at = now(),
           expires_at = LEAST(now() + make_interval(secs => $2), created_at + make_interval(secs => $3))
         WHERE id = $1`,
        [sessionId, IDLE_TIMEOUT_SECONDS, ABSOLUTE_TIMEOUT_SECONDS],
      );
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

    async revoke(sessionId: string): Promise<void> {
      await pool.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
    },

    async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
      await pool.query('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [
        userId,
        exceptSessionId ?? null,
      ]);
    },

    async deleteExpired(): Promise<number> {
      const res = await pool.query('DELETE FROM sessions WHERE expires_at <= now()');
      return res.rowCount ?? 0;
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
