import type { ColumnsOf } from '@server/db/rows';
import type { sessions, users } from '@server/db/schema/index';
import type pg from 'pg';

/** A pool or the connection of an open transaction. */
type Queryable = pg.Pool | pg.PoolClient;

/** A live session as the customer's list shows it. */
export type SessionRow = ColumnsOf<
  typeof sessions,
  'id' | 'ip' | 'user_agent' | 'created_at' | 'last_seen_at'
>;

/** Every method is scoped by the user it acts for. */
export const accountSecurityRepository = {
  /** The user's live sessions, the most recently used first. */
  async listSessions(db: Queryable, userId: string): Promise<SessionRow[]> {
    const { rows } = await db.query<SessionRow>(
      `SELECT id, ip, user_agent, created_at, last_seen_at
         FROM sessions WHERE user_id = $1 AND expires_at > now()
        ORDER BY last_seen_at DESC, created_at DESC`,
      [userId],
    );
    return rows;
  },

  /** Ends one of the user's sessions; false when the user has none by that id. */
  async deleteSession(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
    const res = await db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2', [
      sessionId,
      userId,
    ]);
    return (res.rowCount ?? 0) > 0;
  },

  async passwordHash(db: Queryable, userId: string): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof users, 'password_hash'>>(
      'SELECT password_hash FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.password_hash ?? null;
  },

  /**
   * Sets the new hash only if the old one is still in place: of two changes racing with
   * the same current password, one wins and the other changes nothing.
   */
  async replacePasswordHash(
    db: Queryable,
    userId: string,
    oldHash: string,
    newHash: string,
  ): Promise<boolean> {
    const res = await db.query(
      'UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2',
      [userId, oldHash, newHash],
    );
    return (res.rowCount ?? 0) > 0;
  },

  /** Whether the user has signed in from any device before this one was recorded. */
  async hasKnownDevices(db: Queryable, userId: string): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM known_devices WHERE user_id = $1 LIMIT 1', [
      userId,
    ]);
    return rows.length > 0;
  },

  /** Records a device seen at sign-in; true when it was not known before. */
  async recordDevice(db: Queryable, userId: string, deviceHash: string): Promise<boolean> {
    const { rows } = await db.query<{ inserted: boolean }>(
      `INSERT INTO known_devices (user_id, device_hash) VALUES ($1, $2)
       ON CONFLICT (user_id, device_hash) DO UPDATE SET last_seen_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [userId, deviceHash],
    );
    return rows[0]?.inserted ?? false;
  },
};
