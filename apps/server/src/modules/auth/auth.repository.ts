import { CUSTOMER_ASSETS } from '@coffer/shared';
import { createDbOn, type DbOrTx } from '@server/db/client';
import {
  adminUsers,
  emailVerificationTokens,
  userProfiles,
  users,
  userWallets,
} from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';

async function createUser(
  tx: DbOrTx,
  input: { email: string; passwordHash: string; verified: boolean },
) {
  const inserted = await tx
    .insert(users)
    .values({
      email: input.email,
      passwordHash: input.passwordHash,
      emailVerifiedAt: input.verified ? new Date() : null,
    })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  const user = inserted[0];
  if (!user) return null;
  await tx.insert(userProfiles).values({ id: user.id });
  await tx
    .insert(userWallets)
    .values(CUSTOMER_ASSETS.map((a) => ({ userId: user.id, assetId: a.id, network: a.network })));
  return user;
}

export function createUsersRepository(db: DbOrTx) {
  return {
    async findByEmail(email: string) {
      const rows = await db.select().from(users).where(eq(users.email, email));
      return rows[0] ?? null;
    },

    async findById(id: string) {
      const rows = await db.select().from(users).where(eq(users.id, id));
      return rows[0] ?? null;
    },

    /**
     * Creates the user, its profile and its four wallets together; returns null when the
     * e-mail is taken.
     */
    async create(input: { email: string; passwordHash: string; verified: boolean }, tx?: DbOrTx) {
      if (!tx) return db.transaction((t) => createUser(t, input));
      return createUser(tx, input);
    },

    async isAdmin(userId: string): Promise<boolean> {
      const rows = await db
        .select({ userId: adminUsers.userId })
        .from(adminUsers)
        .where(eq(adminUsers.userId, userId));
      return rows.length > 0;
    },

    async makeAdmin(userId: string, tx: DbOrTx = db) {
      await tx.insert(adminUsers).values({ userId }).onConflictDoNothing();
    },

    async setPassword(userId: string, passwordHash: string) {
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
    },

    /**
     * Replaces a hash made with weaker parameters by a new one of the same password; does
     * nothing if the password changed since it was read (a reset in between wins).
     */
    async upgradePasswordHash(userId: string, oldHash: string, newHash: string) {
      await db
        .update(users)
        .set({ passwordHash: newHash })
        .where(and(eq(users.id, userId), eq(users.passwordHash, oldHash)));
    },

    async markVerified(userId: string) {
      await db
        .update(users)
        .set({ emailVerifiedAt: sql`COALESCE(${users.emailVerifiedAt}, now())` })
        .where(eq(users.id, userId));
    },

    async recordLogin(userId: string) {
      await db
        .update(userProfiles)
        .set({ lastLogin: new Date() })
        .where(eq(userProfiles.id, userId));
    },

    async countCustomers(): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(sql`NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = ${users.id})`);
      return rows[0]?.n ?? 0;
    },

    async countAll(): Promise<number> {
      const rows = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      return rows[0]?.n ?? 0;
    },
  };
}

export function createVerificationTokensRepository(db: DbOrTx) {
  return {
    async create(userId: string, tokenHash: string, expiresAt: Date) {
      await db.insert(emailVerificationTokens).values({ userId, tokenHash, expiresAt });
    },

    /** Voids every unused link of the user: only the newest mailed one may verify. */
    async revokeUnused(userId: string) {
      await db
        .delete(emailVerificationTokens)
        .where(
          and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)),
        );
    },

    /** Marks an unused, unexpired token used and returns its user; null otherwise. */
    async consume(tokenHash: string): Promise<string | null> {
      const rows = await db
        .update(emailVerificationTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(emailVerificationTokens.tokenHash, tokenHash),
            isNull(emailVerificationTokens.usedAt),
            gt(emailVerificationTokens.expiresAt, new Date()),
          ),
        )
        .returning({ userId: emailVerificationTokens.userId });
      return rows[0]?.userId ?? null;
    },
  };
}

/**
 * The auth repositories on the connection of an open transaction (`withTransaction`), so a
 * change and the mail it queues in the outbox commit together.
 */
export function authRepositoriesOn(client: TxClient) {
  const db = createDbOn(client);
  return {
    db,
    users: createUsersRepository(db),
    tokens: createVerificationTokensRepository(db),
  };
}
