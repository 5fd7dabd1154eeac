import type { RowOf } from '@server/db/rows';
import type { userTwoFactor } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** A pool, or the connection of an open transaction. */
type Queryable = pg.Pool | TxClient;

export type TwoFactorRow = RowOf<typeof userTwoFactor>;

/** The columns of a pending setup, cleared together when it is confirmed or dropped. */
const NO_PENDING = `pending_session_id = NULL, pending_secret_encrypted = NULL,
  pending_backup_codes_encrypted = NULL, pending_phrase_encrypted = NULL,
  pending_phrase_check = NULL`;

/** The only code that touches `user_two_factor` and `backup_codes` for their owner. */
export const twoFactorRepository = {
  async find(db: Queryable, userId: string): Promise<TwoFactorRow | null> {
    const { rows } = await db.query<TwoFactorRow>(
      'SELECT * FROM user_two_factor WHERE user_id = $1',
      [userId],
    );
    return rows[0] ?? null;
  },

  /**
   * Stores `fresh` as the user's pending setup unless `sessionId` has one already (or 2FA
   * is on); returns the row as it then stands. The conflict's row lock orders parallel
   * calls: the first one stores, the others keep it and read it back, so they all agree.
   * A setup another session started is replaced: only its own session may see it again.
   */
  async startPending(
    db: Queryable,
    userId: string,
    sessionId: string,
    fresh: {
      secretEncrypted: string;
      backupCodesEncrypted: string;
      phraseEncrypted: string | null;
      phraseCheck: number[] | null;
    },
  ): Promise<TwoFactorRow | null> {
    const { rows } = await db.query<TwoFactorRow>(
      `INSERT INTO user_two_factor AS t (user_id, pending_session_id, pending_secret_encrypted,
         pending_backup_codes_encrypted, pending_phrase_encrypted, pending_phrase_check)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (user_id) DO UPDATE SET
         pending_session_id = EXCLUDED.pending_session_id,
         pending_secret_encrypted = EXCLUDED.pending_secret_encrypted,
         pending_backup_codes_encrypted = EXCLUDED.pending_backup_codes_encrypted,
         pending_phrase_encrypted = EXCLUDED.pending_phrase_encrypted,
         pending_phrase_check = EXCLUDED.pending_phrase_check,
         updated_at = now()
       WHERE t.secret_encrypted IS NULL
         AND (t.pending_secret_encrypted IS NULL OR t.pending_session_id IS DISTINCT FROM $2)
       RETURNING *`,
      [
        userId,
        sessionId,
        fresh.secretEncrypted,
        fresh.backupCodesEncrypted,
        fresh.phraseEncrypted,
        fresh.phraseCheck === null ? null : JSON.stringify(fresh.phraseCheck),
      ],
    );
    return rows[0] ?? (await twoFactorRepository.find(db, userId));
  },

  /** Forgets the user's pending setup, whichever session started it. */
  async discardPending(db: Queryable, userId: string): Promise<void> {
    await db.query(
      `UPDATE user_two_factor SET ${NO_PENDING}, updated_at = now() WHERE user_id = $1`,
      [userId],
    );
  },

  /**
   * Turns the pending setup `secretEncrypted` of `sessionId` into the active one, with its
   * backup codes, on the caller's transaction (which queues the owner's mail with it).
   * False when that setup is no longer pending (confirmed in parallel, cancelled or
   * replaced): then nothing changed.
   */
  async enable(
    client: TxClient,
    userId: string,
    pending: { sessionId: string; secretEncrypted: string },
    codeHashes: string[],
    step: number,
  ): Promise<boolean> {
    const done = await client.query(
      `UPDATE user_two_factor
          SET secret_encrypted = $3, ${NO_PENDING}, last_used_step = $4,
              enabled_at = now(), updated_at = now()
        WHERE user_id = $1 AND pending_session_id = $2 AND pending_secret_encrypted = $3`,
      [userId, pending.sessionId, pending.secretEncrypted, step],
    );
    if ((done.rowCount ?? 0) === 0) return false;
    await client.query('DELETE FROM backup_codes WHERE user_id = $1', [userId]);
    await client.query(
      'INSERT INTO backup_codes (user_id, code_hash) SELECT $1, unnest($2::text[])',
      [userId, codeHashes],
    );
    await client.query('UPDATE user_profiles SET two_factor_enabled = true WHERE id = $1', [
      userId,
    ]);
    return true;
  },

  /**
   * 2FA off: the secret, the backup codes, the passkeys (a second factor only beside it,
   * decision 0014) and the profile flag together, on the caller's transaction, so the
   * change and its outbox mail commit together.
   */
  async disable(client: TxClient, userId: string): Promise<void> {
    await client.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
    await client.query('DELETE FROM user_two_factor WHERE user_id = $1', [userId]);
    await client.query('DELETE FROM backup_codes WHERE user_id = $1', [userId]);
    await client.query('UPDATE user_profiles SET two_factor_enabled = false WHERE id = $1', [
      userId,
    ]);
  },

  /**
   * Records the step of an accepted code, only if it is later than the last one: of two
   * requests racing with the same code, exactly one wins.
   */
  async claimStep(db: Queryable, userId: string, step: number): Promise<boolean> {
    const res = await db.query(
      `UPDATE user_two_factor SET last_used_step = $2
        WHERE user_id = $1 AND (last_used_step IS NULL OR last_used_step < $2)`,
      [userId, step],
    );
    return (res.rowCount ?? 0) > 0;
  },

  /** Uses a backup code once; false when it is unknown or already used. */
  async useBackupCode(db: Queryable, userId: string, codeHash: string): Promise<boolean> {
    const res = await db.query(
      `UPDATE backup_codes SET used_at = now()
        WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
      [userId, codeHash],
    );
    return (res.rowCount ?? 0) > 0;
  },

  async countUnusedBackupCodes(db: Queryable, userId: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM backup_codes WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    return rows[0]?.n ?? 0;
  },
};
