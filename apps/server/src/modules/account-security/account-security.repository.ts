import type pg from 'pg';

/** A pool or the connection of an open transaction. */
type Q = Pick<pg.Pool, 'query'> | pg.PoolClient;

export type SessionRow = {
  id: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
};

/** Every method is scoped by the user it acts for. */
export function createAccountSecurityRepository(pool: pg.Pool) {
  return {
    /** The user's live sessions, the most recently used first. */
    async listSessions(userId: string, q: Q = pool): Promise<SessionRow[]> {
      const { rows } = await q.query<SessionRow>(
        `SELECT id, ip, user_agent AS "userAgent", created_at AS "createdAt", last_seen_at AS "lastSeenAt"
           FROM sessions WHERE user_id = $1 AND expires_at > now()
          ORDER BY last_seen_at DESC, created_at DESC`,
        [userId],
      );
      return rows;
    },

    /** Ends one of the user's sessions; false when the user has none by that id. */
    async deleteSession(userId: string, sessionId: string, q: Q = pool): Promise<boolean> {
      const res = await q.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2', [
        sessionId,
        userId,
      ]);
      return (res.rowCount ?? 0) > 0;
    },

    async passwordHash(userId: string): Promise<string | null> {
      const { rows } = await pool.query<{ hash: string }>(
        'SELECT password_hash AS hash FROM users WHERE id = $1',
        [userId],
      );
      return rows[0]?.hash ?? null;
    },

    /**
     * Sets the new hash only if the old one is still in place: of two changes racing with
     * the same current password, one wins and the other changes nothing.
     */
    async replacePasswordHash(userId: string, oldHash: string, newHash: string, q: Q) {
      const res = await q.query(
        'UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2',
        [userId, oldHash, newHash],
      );
      return (res.rowCount ?? 0) > 0;
    },

    /** Whether the user has signed in from any device before this one was recorded. */
    async hasKnownDevices(userId: string, q: Q): Promise<boolean> {
      const { rows } = await q.query('SELECT 1 FROM known_devices WHERE user_id = $1 LIMIT 1', [
        userId,
      ]);
      return rows.length > 0;
    },

    /** Records a device seen at sign-in; true when it was not known before. */
    async recordDevice(userId: string, deviceHash: string, q: Q): Promise<boolean> {
      const { rows } = await q.query<{ inserted: boolean }>(
        `INSERT INTO known_devices (user_id, device_hash) VALUES ($1, $2)
         ON CONFLICT (user_id, device_hash) DO UPDATE SET last_seen_at = now()
         RETURNING (xmax = 0) AS inserted`,
        [userId, deviceHash],
      );
      return rows[0]?.inserted ?? false;
    },
  };
}

export type AccountSecurityRepository = ReturnType<typeof createAccountSecurityRepository>;
