import type pg from 'pg';

type Queryable = pg.Pool | pg.PoolClient;

export type PendingUnfreeze = {
  id: string;
  requestedBy: string | null;
  requestedByEmail: string | null;
  requestedAt: Date;
  reason: string;
};

export type HoldState = {
  holdUntil: Date | null;
  frozenAt: Date | null;
  /**
   * Whether a confirmed recovery phrase exists: a burnt one's replacement must be confirmed.
   * Always true for staff, who have none: their hold ends with its time.
   */
  hasPhrase: boolean;
};

export const securityHoldRepository = {
  /** The customer's hold, freeze and whether a confirmed recovery phrase exists now. */
  async state(db: Queryable, userId: string): Promise<HoldState | null> {
    const { rows } = await db.query<HoldState>(
      `SELECT p.security_hold_until AS "holdUntil", p.frozen_at AS "frozenAt",
              -- Staff never hold a phrase (they never use one), so none keeps their hold on.
              (EXISTS (SELECT 1 FROM user_seed_phrases s
                        WHERE s.user_id = p.id AND s.confirmed_at IS NOT NULL)
               OR EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = p.id)) AS "hasPhrase"
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

  /**
   * The account's freeze, locked for the caller's transaction (every unfreeze step takes this
   * lock first, so they queue in one order); null for an unknown user.
   */
  async lockFreeze(
    client: pg.PoolClient,
    userId: string,
  ): Promise<{ frozenAt: Date | null; newPasswordRequiredAt: Date | null; email: string } | null> {
    const { rows } = await client.query<{
      frozenAt: Date | null;
      newPasswordRequiredAt: Date | null;
      email: string;
    }>(
      `SELECT p.frozen_at AS "frozenAt", p.new_password_required_at AS "newPasswordRequiredAt", u.email
         FROM user_profiles p JOIN users u ON u.id = p.id WHERE p.id = $1 FOR UPDATE OF p`,
      [userId],
    );
    return rows[0] ?? null;
  },

  /** Whether the account is frozen or waits for a new password (read without a lock). */
  async freezeState(
    db: Queryable,
    userId: string,
  ): Promise<{ frozen: boolean; awaitingNewPassword: boolean } | null> {
    const { rows } = await db.query<{ frozen: boolean; awaitingNewPassword: boolean }>(
      `SELECT frozen_at IS NOT NULL AS frozen, new_password_required_at IS NOT NULL AS "awaitingNewPassword"
         FROM user_profiles WHERE id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  },

  /** The request waiting for a second admin, if any (locked when a client in a transaction asks). */
  async pendingUnfreeze(
    db: Queryable,
    userId: string,
    lock = false,
  ): Promise<PendingUnfreeze | null> {
    const { rows } = await db.query<PendingUnfreeze>(
      `SELECT r.id, r.requested_by AS "requestedBy", u.email AS "requestedByEmail",
              r.requested_at AS "requestedAt", r.reason
         FROM unfreeze_requests r LEFT JOIN users u ON u.id = r.requested_by
        WHERE r.user_id = $1 AND r.decided_at IS NULL
        ${lock ? 'FOR UPDATE OF r' : ''}`,
      [userId],
    );
    return rows[0] ?? null;
  },

  async addUnfreezeRequest(
    client: pg.PoolClient,
    input: { userId: string; requestedBy: string; reason: string },
  ): Promise<void> {
    await client.query(
      'INSERT INTO unfreeze_requests (user_id, requested_by, reason) VALUES ($1, $2, $3)',
      [input.userId, input.requestedBy, input.reason],
    );
  },

  /** Decides a waiting request; false when it was decided meanwhile. */
  async decideUnfreeze(
    client: pg.PoolClient,
    input: {
      id: string;
      decision: 'approved' | 'rejected';
      decidedBy: string;
      reason: string | null;
    },
  ): Promise<boolean> {
    const res = await client.query(
      `UPDATE unfreeze_requests
          SET decision = $2, decided_by = $3, decided_at = now(), decision_reason = $4
        WHERE id = $1 AND decided_at IS NULL`,
      [input.id, input.decision, input.decidedBy, input.reason],
    );
    return res.rowCount === 1;
  },

  /**
   * Lifts a freeze and makes the password unusable until its owner sets a new one: whoever
   * caused the freeze may know it.
   */
  async unfreezeAwaitingPassword(client: pg.PoolClient, userId: string): Promise<void> {
    await client.query(
      `UPDATE user_profiles SET frozen_at = NULL, new_password_required_at = now() WHERE id = $1`,
      [userId],
    );
  },

  /** A new set-password link; the ones sent before stop working, so only the newest does. */
  async addSetPasswordToken(
    client: pg.PoolClient,
    userId: string,
    tokenHash: string,
    validHours: number,
  ): Promise<void> {
    await client.query(
      'UPDATE set_password_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    await client.query(
      `INSERT INTO set_password_tokens (token_hash, user_id, expires_at)
       VALUES ($1, $2, now() + make_interval(hours => $3))`,
      [tokenHash, userId, validHours],
    );
  },

  /** The account a set-password link belongs to while it works (unused, unexpired), or null. */
  async setPasswordTokenOwner(
    db: Queryable,
    tokenHash: string,
  ): Promise<{ userId: string; email: string } | null> {
    const { rows } = await db.query<{ userId: string; email: string }>(
      `SELECT t.user_id AS "userId", u.email FROM set_password_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 AND t.used_at IS NULL AND t.expires_at > now()`,
      [tokenHash],
    );
    return rows[0] ?? null;
  },

  /** Uses a set-password link once; the user it belongs to, or null (unknown, used, expired). */
  async useSetPasswordToken(client: pg.PoolClient, tokenHash: string): Promise<string | null> {
    const { rows } = await client.query<{ user_id: string }>(
      `UPDATE set_password_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [tokenHash],
    );
    return rows[0]?.user_id ?? null;
  },

  /** The owner's new password; the account no longer waits for one. */
  async setNewPassword(client: pg.PoolClient, userId: string, passwordHash: string): Promise<void> {
    await client.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
    await client.query('UPDATE user_profiles SET new_password_required_at = NULL WHERE id = $1', [
      userId,
    ]);
  },
};
