import type { DbOrTx } from '@server/db/client';
import { userSeedPhrases } from '@server/db/schema/index';
import { eq, sql } from 'drizzle-orm';

export function createSeedPhrasesRepository(db: DbOrTx) {
  return {
    async findByUser(userId: string) {
      const rows = await db
        .select()
        .from(userSeedPhrases)
        .where(eq(userSeedPhrases.userId, userId));
      return rows[0] ?? null;
    },

    async findUserIdByHash(phraseHash: string): Promise<string | null> {
      const rows = await db
        .select({ userId: userSeedPhrases.userId })
        .from(userSeedPhrases)
        .where(eq(userSeedPhrases.phraseHash, phraseHash));
      return rows[0]?.userId ?? null;
    },

    /**
     * Burns the user's phrase once it has been used to recover the account: whoever read
     * it must not be able to use it again. The customer generates a new one.
     */
    async burn(userId: string): Promise<void> {
      await db.delete(userSeedPhrases).where(eq(userSeedPhrases.userId, userId));
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
    async insertIfAbsent(input: {
      userId: string;
      encrypted: string;
      hash: string;
    }): Promise<boolean> {
      const rows = await db
        .insert(userSeedPhrases)
        .values({
          userId: input.userId,
          seedPhraseEncrypted: input.encrypted,
          phraseHash: input.hash,
          isGenerated: true,
          confirmedAt: sql`CASE WHEN EXISTS (SELECT 1 FROM user_profiles p
            WHERE p.id = ${input.userId} AND p.security_hold_until IS NOT NULL) THEN NULL ELSE now() END`,
        })
        .onConflictDoNothing({ target: userSeedPhrases.userId })
        .returning({ id: userSeedPhrases.id });
      return rows.length > 0;
    },

    /**
     * Marks the phrase whose keyed hash is `hash` confirmed, keeping the first confirmation's
     * time; null when the user's phrase is not that one. `first` tells a first confirmation
     * from a repeat: the row lock makes exactly one of two parallel ones the first.
     */
    async confirm(
      userId: string,
      hash: string,
    ): Promise<{ confirmedAt: Date; first: boolean } | null> {
      const { rows } = await db.execute<{ confirmed_at: Date | string; first: boolean }>(sql`
        UPDATE user_seed_phrases n SET confirmed_at = COALESCE(o.confirmed_at, now())
          FROM (SELECT id, confirmed_at FROM user_seed_phrases
                 WHERE user_id = ${userId} AND phrase_hash = ${hash} FOR UPDATE) o
         WHERE n.id = o.id
        RETURNING n.confirmed_at, o.confirmed_at IS NULL AS first`);
      const row = rows[0];
      return row ? { confirmedAt: new Date(row.confirmed_at), first: row.first } : null;
    },
  };
}
