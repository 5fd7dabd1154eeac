import type pg from 'pg';

export type PasskeyRow = {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type ChallengePurpose = 'register' | 'assert';

type Q = pg.Pool | pg.PoolClient;

const COLUMNS = `id, user_id AS "userId", credential_id AS "credentialId", public_key AS "publicKey",
  counter::float8 AS counter, transports, name, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

/** The only code that touches `passkeys` and `passkey_challenges`; every look-up is scoped by user. */
export function createPasskeysRepository(pool: pg.Pool) {
  return {
    async listForUser(userId: string, q: Q = pool): Promise<PasskeyRow[]> {
      const { rows } = await q.query<PasskeyRow>(
        `SELECT ${COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows;
    },

    async countForUser(userId: string, q: Q = pool): Promise<number> {
      const { rows } = await q.query<{ n: number }>(
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

    async insert(
      client: pg.PoolClient,
      row: Pick<
        PasskeyRow,
        'userId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'name'
      >,
    ): Promise<PasskeyRow | null> {
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

    async rename(userId: string, id: string, name: string): Promise<PasskeyRow | null> {
      const { rows } = await pool.query<PasskeyRow>(
        `UPDATE passkeys SET name = $3 WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [userId, id, name],
      );
      return rows[0] ?? null;
    },

    async findById(userId: string, id: string, q: Q = pool): Promise<PasskeyRow | null> {
      const { rows } = await q.query<PasskeyRow>(
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
      sessionId: string,
      purpose: ChallengePurpose,
      challenge: string,
      ttlSeconds: number,
    ): Promise<void> {
      await pool.query(
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
      const { rows } = await client.query<{ challenge: string }>(
        `DELETE FROM passkey_challenges
          WHERE session_id = $1 AND purpose = $2 AND expires_at > now()
          RETURNING challenge`,
        [sessionId, purpose],
      );
      return rows[0]?.challenge ?? null;
    },
  };
}

export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;
