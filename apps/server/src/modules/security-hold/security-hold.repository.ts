import type pg from 'pg';

type Queryable = pg.Pool | pg.PoolClient;

export type HoldState = {
  holdUntil: Date | null;
  frozenAt: Date | null;
  /** Whether a confirmed recovery phrase exists: a burnt one's replacement must be confirmed. */
  hasPhrase: boolean;
};

export const securityHoldRepository = {
  /** The customer's hold, freeze and whether a confirmed recovery phrase exists now. */
  async state(db: Queryable, userId: string): Promise<HoldState | null> {
    const { rows } = await db.query<HoldState>(
      `SELECT p.security_hold_until AS "holdUntil", p.frozen_at AS "frozenAt",
              EXISTS (SELECT 1 FROM user_seed_phrases s
                       WHERE s.user_id = p.id AND s.confirmed_at IS NOT NULL) AS "hasPhrase"
         FROM user_profiles p WHERE p.id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  },

  /** Starts (or extends, never shortens) a hold of `hours` from now; the time it ends. */
  async start(client: pg.PoolClient, userId: string, hours: number): Promise<Date> {
    const { rows } = await client.query<{ until: Date }>(
      `UPDATE user_profiles
          SET security_hold_until = GREATEST(COALESCE(security_hold_until, now()), now() + make_interval(hours => $2))
        WHERE id = $1 RETURNING security_hold_until AS until`,
      [userId, hours],
    );
    const until = rows[0]?.until;
    if (!until) throw new Error(`profile ${userId} vanished`);
    return until;
  },

  async addFreezeToken(
    client: pg.PoolClient,
    userId: string,
    tokenHash: string,
    validHours: number,
  ): Promise<void> {
    await client.query(
      `INSERT INTO account_freeze_tokens (token_hash, user_id, expires_at)
       VALUES ($1, $2, now() + make_interval(hours => $3))`,
      [tokenHash, userId, validHours],
    );
  },

  /** Uses a freeze link once; the user it belongs to, or null (unknown, used, expired). */
  async useFreezeToken(client: pg.PoolClient, tokenHash: string): Promise<string | null> {
    const { rows } = await client.query<{ user_id: string }>(
      `UPDATE account_freeze_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [tokenHash],
    );
    return rows[0]?.user_id ?? null;
  },

  /** Freezes the account; its e-mail, or null when it was frozen already. */
  async freeze(client: pg.PoolClient, userId: string): Promise<string | null> {
    const { rows } = await client.query<{ email: string }>(
      `UPDATE user_profiles p SET frozen_at = now() FROM users u
        WHERE p.id = $1 AND u.id = p.id AND p.frozen_at IS NULL RETURNING u.email`,
      [userId],
    );
    return rows[0]?.email ?? null;
  },

  /** Lifts a freeze; when it was frozen, or null when it was not. */
  async unfreeze(client: pg.PoolClient, userId: string): Promise<Date | null> {
    const { rows } = await client.query<{ frozen_at: Date }>(
      `UPDATE user_profiles p SET frozen_at = NULL
         FROM (SELECT frozen_at FROM user_profiles WHERE id = $1 FOR UPDATE) old
        WHERE p.id = $1 AND old.frozen_at IS NOT NULL RETURNING old.frozen_at`,
      [userId],
    );
    return rows[0]?.frozen_at ?? null;
  },
};
