import type pg from 'pg';

/**
 * The second factors a step-up uses up, always on the caller's transaction: the change that
 * asked for the step-up commits with the code used, or neither happens.
 */
export const stepUpRepository = {
  async totpSecret(client: pg.PoolClient, userId: string): Promise<string | null> {
    const { rows } = await client.query<{ secret: string | null }>(
      'SELECT secret_encrypted AS secret FROM user_two_factor WHERE user_id = $1',
      [userId],
    );
    return rows[0]?.secret ?? null;
  },

  /**
   * Records an accepted authenticator step, only if later than the last one used: a code
   * works once (the sign-in's code cannot be replayed), and of two requests racing with the
   * same code one wins (the row lock orders them).
   */
  async claimTotpStep(client: pg.PoolClient, userId: string, step: number): Promise<boolean> {
    const res = await client.query(
      `UPDATE user_two_factor SET last_used_step = $2
        WHERE user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2)`,
      [userId, step],
    );
    return (res.rowCount ?? 0) > 0;
  },

  /**
   * Holds the account's step-ups one at a time until the transaction ends (a transaction
   * advisory lock, so a rollback or commit always lets it go).
   */
  async lockSubject(client: pg.PoolClient, userId: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `step-up:${userId}`,
    ]);
  },

  /** Whether this is a backup code of the account that was already used. */
  async isUsedBackupCode(
    client: pg.PoolClient,
    userId: string,
    codeHash: string,
  ): Promise<boolean> {
    const { rows } = await client.query(
      'SELECT 1 FROM backup_codes WHERE user_id = $1 AND code_hash = $2 AND used_at IS NOT NULL',
      [userId, codeHash],
    );
    return rows.length > 0;
  },

  /** Uses up a backup code once; false when it is unknown or already used. */
  async useBackupCode(client: pg.PoolClient, userId: string, codeHash: string): Promise<boolean> {
    const res = await client.query(
      `UPDATE backup_codes SET used_at = now()
        WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
      [userId, codeHash],
    );
    return (res.rowCount ?? 0) > 0;
  },
};
