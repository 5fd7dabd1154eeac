import { assetById, parseAmount, type TAsset } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { userProfiles, userSeedPhrases, users } from '@server/db/schema/index';
import type pg from 'pg';

export type DirectoryRow = ColumnsOf<typeof users, 'id' | 'email'> &
  ColumnsOf<typeof userProfiles, 'full_name' | 'username'>;

/** `%text%` for ILIKE, with the pattern characters of the text itself taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// A customer is any user who is not in admin_users.
const CUSTOMER = 'NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = u.id)';
// Each ILIKE can use its trigram index (0002_back_office.sql); the planner ORs the bitmaps.
const MATCHES = '(p.full_name ILIKE $1 OR p.username ILIKE $1 OR u.email ILIKE $1)';

export const adminUsersRepository = {
  /** Customers whose name, username or e-mail contains `q`; newest first. */
  async directory(pool: pg.Pool, q: string, limit: number): Promise<DirectoryRow[]> {
    const { rows } =
      q === ''
        ? await pool.query<DirectoryRow>(
            `SELECT u.id, u.email, p.full_name, p.username
               FROM users u JOIN user_profiles p ON p.id = u.id
              WHERE ${CUSTOMER}
              ORDER BY p.created_at DESC, u.id DESC LIMIT $1`,
            [limit],
          )
        : await pool.query<DirectoryRow>(
            `SELECT u.id, u.email, p.full_name, p.username
               FROM users u JOIN user_profiles p ON p.id = u.id
              WHERE ${CUSTOMER} AND ${MATCHES}
              ORDER BY p.created_at DESC, u.id DESC LIMIT $2`,
            [containsPattern(q), limit],
          );
    return rows;
  },
};

/** A wallet that holds something: its asset and balance in the asset's smallest unit. */
export type HeldWallet = { asset: TAsset; balance: bigint };

/** What a customer's figures are made of: the wallets that hold something, and when they joined. */
export type FiguresRow = ColumnsOf<typeof userProfiles, 'id' | 'registration_date'> & {
  wallets: HeldWallet[];
};

export type UserRow = DirectoryRow &
  FiguresRow &
  ColumnsOf<
    typeof userProfiles,
    'status' | 'created_at' | 'last_login' | 'two_factor_required' | 'two_factor_enabled'
  > & { frozen: boolean };

export type SummaryRow = { total: number; active: number; new_month: number; verified: number };
export type TwoFactorStateRow = ColumnsOf<typeof users, 'email'> &
  ColumnsOf<typeof userProfiles, 'id' | 'two_factor_required' | 'two_factor_enabled'>;
export type PhraseSummaryRow = { total: number; generated: number; custom: number; week: number };
export type PhraseRow = DirectoryRow &
  ColumnsOf<typeof userSeedPhrases, 'is_generated' | 'created_at'>;

/**
 * One asset's completed volume of the last 30 days: the stored USD amounts summed, and what
 * is still to be valued, crypto in the asset's smallest unit (null for no catalogue asset)
 * or AUD.
 */
export type AssetVolume = {
  assetId: string;
  usd: string;
  crypto: { asset: TAsset; amount: bigint } | null;
  aud: string;
};

/** A row as the query gives its wallets: [asset id, balance] of each one above zero. */
type WithWalletsJson<R extends { wallets: HeldWallet[] }> = Omit<R, 'wallets'> & {
  wallets: Array<[string, string]>;
};

/** A row's wallets as balances; an asset the catalogue does not know is left out. */
function heldWallets(json: Array<[string, string]>): HeldWallet[] {
  const wallets: HeldWallet[] = [];
  for (const [assetId, balance] of json) {
    const asset = assetById(assetId);
    if (asset) wallets.push({ asset, balance: parseAmount(balance, asset.decimals) });
  }
  return wallets;
}

function withBalances<R extends { wallets: HeldWallet[] }>(row: WithWalletsJson<R>) {
  return { ...row, wallets: heldWallets(row.wallets) };
}

// Each customer's wallets come with the customer's row, so a page of customers and what
// they hold is one round trip (user_wallets' (user_id, asset_id) key answers each).
const WALLETS = `(SELECT coalesce(json_agg(json_build_array(w.asset_id, w.balance_crypto::text)), '[]')
     FROM user_wallets w WHERE w.user_id = p.id AND w.balance_crypto > 0) AS wallets`;

const USER_COLUMNS = `u.id, u.email, p.full_name, p.username, p.status, p.created_at,
  p.registration_date, p.last_login, p.two_factor_required, p.two_factor_enabled,
  (p.frozen_at IS NOT NULL OR p.new_password_required_at IS NOT NULL) AS frozen, ${WALLETS}`;

export const usersManagementRepository = {
  /** Resolves when the database answers (the overview's health tile). */
  async ping(pool: pg.Pool): Promise<void> {
    await pool.query('SELECT 1');
  },

  /** The four summary figures in one pass over the customers. */
  async summary(pool: pg.Pool): Promise<SummaryRow> {
    const { rows } = await pool.query<SummaryRow>({
      name: 'admin_users_summary',
      text: `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE p.status = 'active')::int AS active,
              count(*) FILTER (WHERE p.created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')::int AS new_month,
              count(*) FILTER (WHERE u.email_verified_at IS NOT NULL)::int AS verified
         FROM users u JOIN user_profiles p ON p.id = u.id
        WHERE ${CUSTOMER}`,
    });
    return rows[0] ?? { total: 0, active: 0, new_month: 0, verified: 0 };
  },

  /**
   * One page of customers, newest first: read in order from user_profiles_created_at_idx
   * (NULLS LAST spelled out as the index has it, or the planner sorts every customer).
   */
  async page(pool: pg.Pool, limit: number, offset: number): Promise<UserRow[]> {
    // The bounds are written into the text (validated integers): as parameters, the
    // generic plan would guess a tenth of the customers and sort them all, so PostgreSQL
    // would plan each execution afresh. The first page is a named statement, planned once
    // per connection; deeper pages are planned each time rather than kept.
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(limit)) {
      throw new Error('page bounds must be integers');
    }
    const text = `SELECT ${USER_COLUMNS}
         FROM user_profiles p JOIN users u ON u.id = p.id
        WHERE ${CUSTOMER}
        ORDER BY p.created_at DESC NULLS LAST, p.id DESC NULLS LAST LIMIT ${limit} OFFSET ${offset}`;
    const { rows } = await pool.query<WithWalletsJson<UserRow>>(
      offset === 0 ? { name: `admin_users_page_${limit}`, text } : { text },
    );
    return rows.map(withBalances);
  },

  /** One page of the customers matching a search, and how many match. */
  async search(
    pool: pg.Pool,
    q: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: UserRow[]; total: number }> {
    const pattern = containsPattern(q);
    const [page, count] = await Promise.all([
      pool.query<WithWalletsJson<UserRow>>(
        `SELECT ${USER_COLUMNS}
           FROM user_profiles p JOIN users u ON u.id = p.id
          WHERE ${CUSTOMER} AND ${MATCHES}
          ORDER BY p.created_at DESC NULLS LAST, p.id DESC NULLS LAST LIMIT $2 OFFSET $3`,
        [pattern, limit, offset],
      ),
      pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM user_profiles p JOIN users u ON u.id = p.id
          WHERE ${CUSTOMER} AND ${MATCHES}`,
        [pattern],
      ),
    ]);
    return { rows: page.rows.map(withBalances), total: count.rows[0]?.n ?? 0 };
  },

  /** The figures rows of the given customers (admins among them left out). */
  async figures(pool: pg.Pool, userIds: string[]): Promise<FiguresRow[]> {
    const { rows } = await pool.query<WithWalletsJson<FiguresRow>>({
      // The screen polls it every 5 s: planned once per connection.
      name: 'admin_users_figures',
      text: `SELECT p.id, p.registration_date, ${WALLETS} FROM user_profiles p
        WHERE p.id = ANY($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = p.id)`,
      values: [userIds],
    });
    return rows.map(withBalances);
  },

  /** Locks a customer's profile for a 2FA change; null for an unknown id or a staff member. */
  async lockCustomer(client: pg.PoolClient, userId: string): Promise<TwoFactorStateRow | null> {
    const { rows } = await client.query<TwoFactorStateRow>(
      `SELECT p.id, u.email, p.two_factor_required, p.two_factor_enabled
         FROM user_profiles p JOIN users u ON u.id = p.id
        WHERE p.id = $1 AND NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = p.id)
        FOR UPDATE OF p`,
      [userId],
    );
    return rows[0] ?? null;
  },

  /** Whether an id names a staff member; null when it names no one. */
  async accountKind(pool: pg.Pool, userId: string): Promise<{ is_admin: boolean } | null> {
    const { rows } = await pool.query<{ is_admin: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = p.id) AS is_admin
         FROM user_profiles p WHERE p.id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  },

  /**
   * Locks any account's profile, customer or staff, for turning its second factor off (a
   * customer's at once, a staff member's on an owner's approval); null for an unknown id.
   */
  async lockAccount(
    client: pg.PoolClient,
    userId: string,
  ): Promise<(TwoFactorStateRow & { is_admin: boolean }) | null> {
    const { rows } = await client.query<TwoFactorStateRow & { is_admin: boolean }>(
      `SELECT p.id, u.email, p.two_factor_required, p.two_factor_enabled,
              EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = p.id) AS is_admin
         FROM user_profiles p JOIN users u ON u.id = p.id
        WHERE p.id = $1
        FOR UPDATE OF p`,
      [userId],
    );
    return rows[0] ?? null;
  },

  async setRequired(client: pg.PoolClient, userId: string, required: boolean): Promise<void> {
    await client.query('UPDATE user_profiles SET two_factor_required = $2 WHERE id = $1', [
      userId,
      required,
    ]);
  },

  /**
   * Turns 2FA off: the secret, pending setup, backup codes and passkeys (a second factor
   * only beside it, decision 0014) go, the profile says off.
   */
  async removeTwoFactor(client: pg.PoolClient, userId: string): Promise<void> {
    await client.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
    await client.query('DELETE FROM user_two_factor WHERE user_id = $1', [userId]);
    await client.query('DELETE FROM backup_codes WHERE user_id = $1', [userId]);
    await client.query('UPDATE user_profiles SET two_factor_enabled = false WHERE id = $1', [
      userId,
    ]);
  },

  // ---------------------------------------------------------------- recovery phrases

  async phraseSummary(pool: pg.Pool): Promise<PhraseSummaryRow> {
    const { rows } = await pool.query<PhraseSummaryRow>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE is_generated)::int AS generated,
              count(*) FILTER (WHERE NOT is_generated)::int AS custom,
              count(*) FILTER (WHERE created_at >= now() - interval '7 days')::int AS week
         FROM user_seed_phrases`,
    );
    return rows[0] ?? { total: 0, generated: 0, custom: 0, week: 0 };
  },

  /** Metadata of the phrases, newest first. The phrase columns are never selected. */
  async phrases(pool: pg.Pool, limit: number, offset: number): Promise<PhraseRow[]> {
    const { rows } = await pool.query<PhraseRow>(
      `SELECT u.id, u.email, p.full_name, p.username, sp.is_generated, sp.created_at
         FROM user_seed_phrases sp JOIN users u ON u.id = sp.user_id
         LEFT JOIN user_profiles p ON p.id = u.id
        ORDER BY sp.created_at DESC, sp.id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return rows;
  },

  async withoutPhrase(
    pool: pg.Pool,
    limit: number,
  ): Promise<{ rows: DirectoryRow[]; total: number }> {
    const none = 'NOT EXISTS (SELECT 1 FROM user_seed_phrases sp WHERE sp.user_id = u.id)';
    const [page, count] = await Promise.all([
      pool.query<DirectoryRow>(
        `SELECT u.id, u.email, p.full_name, p.username
           FROM users u LEFT JOIN user_profiles p ON p.id = u.id
          WHERE ${none} ORDER BY u.created_at DESC, u.id DESC LIMIT $1`,
        [limit],
      ),
      pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u WHERE ${none}`),
    ]);
    return { rows: page.rows, total: count.rows[0]?.n ?? 0 };
  },

  // ---------------------------------------------------------------- dashboard

  async countCustomers(pool: pg.Pool): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users u WHERE ${CUSTOMER}`,
    );
    return rows[0]?.n ?? 0;
  },

  async countActiveAddresses(pool: pg.Pool): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deposit_addresses WHERE is_active',
    );
    return rows[0]?.n ?? 0;
  },

  /**
   * Completed deposits, withdrawals and bank transfers of the last 30 days, per asset: the
   * stored USD amounts summed, and, for rows without one, the crypto (or, for a bank
   * transfer, the AUD) amount still to be valued.
   */
  async volume30d(pool: pg.Pool): Promise<AssetVolume[]> {
    const { rows } = await pool.query<{
      asset_id: string;
      usd: string;
      crypto: string;
      aud: string;
    }>(
      `SELECT asset_id,
              COALESCE(SUM(usd_amount), 0)::text AS usd,
              COALESCE(SUM(crypto_amount) FILTER (WHERE usd_amount IS NULL), 0)::text AS crypto,
              COALESCE(SUM(aud_amount) FILTER (WHERE usd_amount IS NULL), 0)::text AS aud
         FROM transactions
        WHERE transaction_type IN ('deposit', 'withdrawal', 'bank_transfer')
          AND status = 'completed' AND deleted_at IS NULL
          AND transaction_date >= now() - interval '30 days'
        GROUP BY asset_id`,
    );
    return rows.map((r) => {
      const asset = assetById(r.asset_id);
      return {
        assetId: r.asset_id,
        usd: r.usd,
        crypto: asset ? { asset, amount: parseAmount(r.crypto, asset.decimals) } : null,
        aud: r.aud,
      };
    });
  },
};
