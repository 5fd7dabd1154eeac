import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { userSeedPhrases } from '../../db/schema/index';

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

    /** Inserts unless the user already has one; returns whether this call created it. */
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
        })
        .onConflictDoNothing({ target: userSeedPhrases.userId })
        .returning({ id: userSeedPhrases.id });
      return rows.length > 0;
    },
  };
}
