import { CUSTOMER_ASSETS } from '@coffer/shared';
import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { emailVerificationTokens, users } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** A pool, or the connection of an open transaction. */
type Queryable = pg.Pool | TxClient;

export type UserRow = RowOf<typeof users>;

/** The accounts: `users` and what every new account gets beside it. */
export const usersRepository = {
  async findByEmail(db: Queryable, email: string): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE email = $1', [email]);
    return rows[0] ?? null;
  },

  async findById(db: Queryable, id: string): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
    return rows[0] ?? null;
  },

  /**
   * Creates the user, its profile and its wallets together, on the caller's transaction;
   * null when the e-mail is taken.
   */
  async create(
    client: TxClient,
    input: { email: string; passwordHash: string; verified: boolean },
  ): Promise<{ id: string } | null> {
    const { rows } = await client.query<ColumnsOf<typeof users, 'id'>>(
      `INSERT INTO users (email, password_hash, email_verified_at)
       VALUES ($1, $2, CASE WHEN $3::boolean THEN now() END)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [input.email, input.passwordHash, input.verified],
    );
    const user = rows[0];
    if (!user) return null;
    await client.query('INSERT INTO user_profiles (id) VALUES ($1)', [user.id]);
    await client.query(
      `INSERT INTO user_wallets (user_id, asset_id, network)
       SELECT $1, a.asset_id, a.network FROM unnest($2::text[], $3::text[]) AS a(asset_id, network)`,
      [user.id, CUSTOMER_ASSETS.map((a) => a.id), CUSTOMER_ASSETS.map((a) => a.network)],
    );
    return { id: user.id };
  },

  /** Whether signing in takes a second factor after the password. */
  async twoFactorEnabled(db: Queryable, userId: string): Promise<boolean> {
    const { rows } = await db.query<{ on: boolean }>(
      'SELECT two_factor_enabled AS on FROM user_profiles WHERE id = $1',
      [userId],
    );
    return rows[0]?.on ?? false;
  },

  async isAdmin(db: Queryable, userId: string): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM admin_users WHERE user_id = $1', [userId]);
    return rows.length > 0;
  },

  /** Makes the user staff with these roles; an existing staff member's roles are left alone. */
  async makeAdmin(db: Queryable, userId: string, roles: readonly string[]): Promise<void> {
    await db.query(
      'INSERT INTO admin_users (user_id, roles) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [userId, roles],
    );
  },

  async setPassword(db: Queryable, userId: string, passwordHash: string): Promise<void> {
    await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  },

  /**
   * Replaces a hash made with weaker parameters by a new one of the same password; does
   * nothing if the password changed since it was read (a reset in between wins).
   */
  async upgradePasswordHash(
    db: Queryable,
    userId: string,
    oldHash: string,
    newHash: string,
  ): Promise<void> {
    await db.query('UPDATE users SET password_hash = $3 WHERE id = $1 AND password_hash = $2', [
      userId,
      oldHash,
      newHash,
    ]);
  },

  async markVerified(db: Queryable, userId: string): Promise<void> {
    await db.query(
      'UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()) WHERE id = $1',
      [userId],
    );
  },

  async recordLogin(db: Queryable, userId: string): Promise<void> {
    await db.query('UPDATE user_profiles SET last_login = now() WHERE id = $1', [userId]);
  },

  /** Accounts that are not staff. */
  async countCustomers(db: Queryable): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users u
        WHERE NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = u.id)`,
    );
    return rows[0]?.n ?? 0;
  },
};

/** The links that verify a new account's e-mail; only their hashes are stored. */
export const verificationTokensRepository = {
  async create(db: Queryable, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await db.query(
      'INSERT INTO email_verification_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, $3)',
      [userId, tokenHash, expiresAt],
    );
  },

  /** Voids every unused link of the user: only the newest mailed one may verify. */
  async revokeUnused(db: Queryable, userId: string): Promise<void> {
    await db.query('DELETE FROM email_verification_tokens WHERE user_id = $1 AND used_at IS NULL', [
      userId,
    ]);
  },

  /** Marks an unused, unexpired token used and returns its user; null otherwise. */
  async consume(db: Queryable, tokenHash: string): Promise<string | null> {
    const { rows } = await db.query<ColumnsOf<typeof emailVerificationTokens, 'user_id'>>(
      `UPDATE email_verification_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [tokenHash],
    );
    return rows[0]?.user_id ?? null;
  },
};
