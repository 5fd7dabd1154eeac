import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { backupCodes, passkeys, userProfiles, userTwoFactor } from '../../db/schema/index';

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
  return {
    async find(userId: string) {
      const rows = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
      return rows[0] ?? null;
    },

    async savePending(
      userId: string,
      pendingSecretEncrypted: string,
      pendingBackupCodeHashes: string[],
    ) {
      await db
        .insert(userTwoFactor)
        .values({ userId, pendingSecretEncrypted, pendingBackupCodeHashes })
        .onConflictDoUpdate({
          target: userTwoFactor.userId,
          set: { pendingSecretEncrypted, pendingBackupCodeHashes, updatedAt: new Date() },
        });
    },

    /**
     * Turns the pending setup into the active one, with its backup codes, on `tx` (the
     * caller's transaction, which queues the owner's mail with it).
     */
    async enable(
      tx: DbOrTx,
      userId: string,
      secretEncrypted: string,
      codeHashes: string[],
      step: number,
    ) {
      await tx
        .update(userTwoFactor)
        .set({
          secretEncrypted,
          pendingSecretEncrypted: null,
          pendingBackupCodeHashes: null,
          lastUsedStep: step,
          enabledAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(userTwoFactor.userId, userId));
      await tx.delete(backupCodes).where(eq(backupCodes.userId, userId));
      if (codeHashes.length > 0) {
        await tx.insert(backupCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      }
      await tx
        .update(userProfiles)
        .set({ twoFactorEnabled: true })
        .where(eq(userProfiles.id, userId));
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
