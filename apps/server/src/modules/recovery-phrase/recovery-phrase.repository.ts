import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { userSeedPhrases } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** A pool, or the connection of an open transaction. */
type Queryable = pg.Pool | TxClient;

export type SeedPhraseRow = RowOf<typeof userSeedPhrases>;

/** The only code that touches `user_seed_phrases`. */
export const seedPhrasesRepository = {
  async findByUser(db: Queryable, userId: string): Promise<SeedPhraseRow | null> {
    const { rows } = await db.query<SeedPhraseRow>(
      'SELECT * FROM user_seed_phrases WHERE user_id = $1',
      [userId],
    );
    return rows[0] ?? null;
  },

  async findUserIdByHash(db: Queryable, phraseHash: string): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof userSeedPhrases, 'user_id'>>(
      'SELECT user_id FROM user_seed_phrases WHERE phrase_hash = $1',
      [phraseHash],
    );
    return rows[0]?.user_id ?? null;
  },

  /**
   * Burns the user's phrase once it has been used to recover the account: whoever read
   * it must not be able to use it again. The customer generates a new one.
   */
  async burn(db: Queryable, userId: string): Promise<void> {
    await db.query('DELETE FROM user_seed_phrases WHERE user_id = $1', [userId]);
  },

  /**
   * Inserts unless the user already has one; returns whether this call created it.
   *
   * A phrase made for an account that has had a security hold replaces a burnt one (every
   * burn starts a hold, product.md S10), so it is stored unconfirmed: the hold lasts until
   * the customer proves they wrote it down. The account's first phrase, shown once at
   * sign-up's 2FA setup, is not asked back (nothing waits on it) and counts as confirmed
   * from when it was made, as the phrases from before confirmation existed do.
   */
  async insertIfAbsent(
    db: Queryable,
    input: { userId: string; encrypted: string; hash: string },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO user_seed_phrases
         (user_id, seed_phrase_encrypted, phrase_hash, is_generated, confirmed_at)
       VALUES ($1, $2, $3, true,
               CASE WHEN EXISTS (SELECT 1 FROM user_profiles p
                  WHERE p.id = $1 AND p.security_hold_until IS NOT NULL) THEN NULL ELSE now() END)
       ON CONFLICT (user_id) DO NOTHING`,
      [input.userId, input.encrypted, input.hash],
    );
    return (rowCount ?? 0) > 0;
  },

  /**
   * Marks the phrase whose keyed hash is `hash` confirmed, keeping the first confirmation's
   * time; null when the user's phrase is not that one. `first` tells a first confirmation
   * from a repeat: the row lock makes exactly one of two parallel ones the first.
   */
  async confirm(
    client: TxClient,
    userId: string,
    hash: string,
  ): Promise<{ confirmedAt: Date; first: boolean } | null> {
    const { rows } = await client.query<{ confirmed_at: Date; first: boolean }>(
      `UPDATE user_seed_phrases n SET confirmed_at = COALESCE(o.confirmed_at, now())
         FROM (SELECT id, confirmed_at FROM user_seed_phrases
                WHERE user_id = $1 AND phrase_hash = $2 FOR UPDATE) o
        WHERE n.id = o.id
       RETURNING n.confirmed_at, o.confirmed_at IS NULL AS first`,
      [userId, hash],
    );
    const row = rows[0];
    return row ? { confirmedAt: row.confirmed_at, first: row.first } : null;
  },
};
