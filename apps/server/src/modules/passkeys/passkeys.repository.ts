import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { passkeyChallenges, passkeys } from '@server/db/schema/index';
import type pg from 'pg';

/**
 * A passkey as the repository returns it. `counter` is read as a float8: WebAuthn counts in
 * numbers, and a signature counter stays far below 2^53.
 */
export type PasskeyRow = Omit<RowOf<typeof passkeys>, 'counter'> & { counter: number };

/** What registering a passkey stores. */
export type NewPasskey = {
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
};

export type ChallengePurpose = 'register' | 'assert';

/** A pool, or the connection of an open transaction. */
type Queryable = pg.Pool | pg.PoolClient;

const COLUMNS = `id, user_id, credential_id, public_key, counter::float8 AS counter, transports, name,
  created_at, last_used_at`;

/** The only code that touches `passkeys` and `passkey_challenges`; every look-up is scoped by user. */
export const passkeysRepository = {
  async listForUser(db: Queryable, userId: string): Promise<PasskeyRow[]> {
    const { rows } = await db.query<PasskeyRow>(
      `SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows;
  },

  /**
   * The e-mail of every staff member who holds no passkey, in order: who
   * `admins_require_passkey` would lock out.
   */
  async staffWithoutPasskey(db: Queryable): Promise<string[]> {
    const { rows } = await db.query<{ email: string }>(
      `SELECT u.email FROM admin_users a JOIN users u ON u.id = a.user_id
        WHERE NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = a.user_id)
        ORDER BY u.email`,
    );
    return rows.map((r) => r.email);
  },

  async countForUser(db: Queryable, userId: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM passkeys WHERE user_id = $1',
      [userId],
    );
    return rows[0]?.n ?? 0;
  },

  /** The user's own credential with this id, locked for the caller's transaction; null otherwise. */
  async findForUpdate(
    client: pg.PoolClient,
    userId: string,
    credentialId: string,
  ): Promise<PasskeyRow | null> {
    const { rows } = await client.query<PasskeyRow>(
      `SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 AND credential_id = $2 FOR UPDATE`,
      [userId, credentialId],
    );
    return rows[0] ?? null;
  },

  async insert(client: pg.PoolClient, row: NewPasskey): Promise<PasskeyRow | null> {
    // A credential already registered (to anyone) is not taken over: nothing is inserted.
    const { rows } = await client.query<PasskeyRow>(
      `INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        row.userId,
        row.credentialId,
        row.publicKey,
        row.counter,
        JSON.stringify(row.transports),
        row.name,
      ],
    );
    return rows[0] ?? null;
  },

  async recordUse(client: pg.PoolClient, id: string, counter: number): Promise<void> {
    await client.query('UPDATE passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [
      id,
      counter,
    ]);
  },

  async rename(
    db: Queryable,
    userId: string,
    id: string,
    name: string,
  ): Promise<PasskeyRow | null> {
    const { rows } = await db.query<PasskeyRow>(
      `UPDATE passkeys SET name = $3 WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [userId, id, name],
    );
    return rows[0] ?? null;
  },

  async findById(db: Queryable, userId: string, id: string): Promise<PasskeyRow | null> {
    const { rows } = await db.query<PasskeyRow>(
      `SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return rows[0] ?? null;
  },

  async remove(client: pg.PoolClient, userId: string, id: string): Promise<boolean> {
    const res = await client.query('DELETE FROM passkeys WHERE user_id = $1 AND id = $2', [
      userId,
      id,
    ]);
    return (res.rowCount ?? 0) > 0;
  },

  /** Starts a ceremony: replaces any earlier challenge of the same session and purpose. */
  async saveChallenge(
    db: Queryable,
    sessionId: string,
    purpose: ChallengePurpose,
    challenge: string,
    ttlSeconds: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO passkey_challenges (session_id, purpose, challenge, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (session_id, purpose)
       DO UPDATE SET challenge = EXCLUDED.challenge, expires_at = EXCLUDED.expires_at`,
      [sessionId, purpose, challenge, ttlSeconds],
    );
  },

  /**
   * Takes the session's live challenge on the caller's transaction. It is gone once that
   * commits, so an answer is accepted once; a refused answer rolls back and leaves it, and a
   * parallel request with the same answer waits on the row and then finds nothing.
   */
  async takeChallenge(
    client: pg.PoolClient,
    sessionId: string,
    purpose: ChallengePurpose,
  ): Promise<string | null> {
    const { rows } = await client.query<ColumnsOf<typeof passkeyChallenges, 'challenge'>>(
      `DELETE FROM passkey_challenges
        WHERE session_id = $1 AND purpose = $2 AND expires_at > now()
        RETURNING challenge`,
      [sessionId, purpose],
    );
    return rows[0]?.challenge ?? null;
  },
};
