import type { Db, DbOrTx } from '@server/db/client';
import { backupCodes, passkeys, userProfiles, userTwoFactor } from '@server/db/schema/index';
import { and, eq, isNull, sql } from 'drizzle-orm';

/**
 * 2FA off: the secret, the backup codes, the passkeys (a second factor only beside it,
 * decision 0014) and the profile flag together, on `tx`.
 */
async function removeTwoFactor(tx: DbOrTx, userId: string) {
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  await tx.delete(backupCodes).where(eq(backupCodes.userId, userId));
  await tx.update(userProfiles).set({ twoFactorEnabled: false }).where(eq(userProfiles.id, userId));
}

export function createTwoFactorRepository(db: Db) {
  async function find(userId: string) {
    const rows = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
    return rows[0] ?? null;
  }

  return {
    find,

    /**
     * Stores `fresh` as the user's pending setup unless `sessionId` has one already (or 2FA
     * is on); returns the row as it then stands. The conflict's row lock orders parallel
     * calls: the first one stores, the others keep it and read it back, so they all agree.
     * A setup another session started is replaced: only its own session may see it again.
     */
    async startPending(
      userId: string,
      sessionId: string,
      fresh: {
        secretEncrypted: string;
        backupCodesEncrypted: string;
        phraseEncrypted: string | null;
        phraseCheck: number[] | null;
      },
    ) {
      const pending = {
        pendingSessionId: sessionId,
        pendingSecretEncrypted: fresh.secretEncrypted,
        pendingBackupCodesEncrypted: fresh.backupCodesEncrypted,
        pendingPhraseEncrypted: fresh.phraseEncrypted,
        pendingPhraseCheck: fresh.phraseCheck,
      };
      const stored = await db
        .insert(userTwoFactor)
        .values({ userId, ...pending })
        .onConflictDoUpdate({
          target: userTwoFactor.userId,
          set: { ...pending, updatedAt: new Date() },
          where: sql`${userTwoFactor.secretEncrypted} IS NULL AND (${userTwoFactor.pendingSecretEncrypted} IS NULL
            OR ${userTwoFactor.pendingSessionId} IS DISTINCT FROM ${sessionId})`,
        })
        .returning();
      return stored[0] ?? (await find(userId));
    },

    /** Forgets the user's pending setup, whichever session started it. */
    async discardPending(userId: string) {
      await db
        .update(userTwoFactor)
        .set({
          pendingSessionId: null,
          pendingSecretEncrypted: null,
          pendingBackupCodesEncrypted: null,
          pendingPhraseEncrypted: null,
          pendingPhraseCheck: null,
          updatedAt: new Date(),
        })
        .where(eq(userTwoFactor.userId, userId));
    },

    /**
     * Turns the pending setup `secretEncrypted` of `sessionId` into the active one, with its
     * backup codes, on `tx` (the caller's transaction, which queues the owner's mail with
     * it). False when that setup is no longer pending (confirmed in parallel, cancelled or
     * replaced): then nothing changed.
     */
    async enable(
      tx: DbOrTx,
      userId: string,
      pending: { sessionId: string; secretEncrypted: string },
      codeHashes: string[],
      step: number,
    ): Promise<boolean> {
      const done = await tx
        .update(userTwoFactor)
        .set({
          secretEncrypted: pending.secretEncrypted,
          pendingSessionId: null,
          pendingSecretEncrypted: null,
          pendingBackupCodesEncrypted: null,
          pendingPhraseEncrypted: null,
          pendingPhraseCheck: null,
          lastUsedStep: step,
          enabledAt: new Date(),
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(userTwoFactor.userId, userId),
            eq(userTwoFactor.pendingSessionId, pending.sessionId),
            eq(userTwoFactor.pendingSecretEncrypted, pending.secretEncrypted),
          ),
        )
        .returning({ userId: userTwoFactor.userId });
      if (done.length === 0) return false;
      await tx.delete(backupCodes).where(eq(backupCodes.userId, userId));
      if (codeHashes.length > 0) {
        await tx.insert(backupCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      }
      await tx
        .update(userProfiles)
        .set({ twoFactorEnabled: true })
        .where(eq(userProfiles.id, userId));
      return true;
    },

    /**
     * Turns 2FA off in one transaction; given `tx` (e.g. Drizzle on a `withTransaction`
     * client), in that one, so a change and its outbox mail commit together.
     */
    async disable(userId: string, tx?: DbOrTx) {
      if (tx) await removeTwoFactor(tx, userId);
      else await db.transaction((t) => removeTwoFactor(t, userId));
    },

    /**
     * Records the step of an accepted code, only if it is later than the last one: of two
     * requests racing with the same code, exactly one wins.
     */
    async claimStep(userId: string, step: number): Promise<boolean> {
      const rows = await db
        .update(userTwoFactor)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(userTwoFactor.userId, userId),
            sql`(${userTwoFactor.lastUsedStep} IS NULL OR ${userTwoFactor.lastUsedStep} < ${step})`,
          ),
        )
        .returning({ userId: userTwoFactor.userId });
      return rows.length > 0;
    },

    /** Uses a backup code once; false when it is unknown or already used. */
    async useBackupCode(userId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .update(backupCodes)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(backupCodes.userId, userId),
            eq(backupCodes.codeHash, codeHash),
            isNull(backupCodes.usedAt),
          ),
        )
        .returning({ id: backupCodes.id });
      return rows.length > 0;
    },

    async countUnusedBackupCodes(userId: string): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(backupCodes)
        .where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)));
      return rows[0]?.n ?? 0;
    },
  };
}

export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
