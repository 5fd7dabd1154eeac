import { toMinor } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { appSettings, userStaking, userWallets } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

type StakingRecord = ColumnsOf<
  typeof userStaking,
  | 'user_id'
  | 'accrued_pending'
  | 'last_checkpoint_at'
  | 'daily_rate'
  | 'cycle_start_at'
  | 'staking_since'
>;

/** A user's staking row: the accrual in wei; the rate an exact decimal string. */
export type StakingRow = Omit<StakingRecord, 'accrued_pending'> & { accrued_pending: bigint };

type Setting = ColumnsOf<typeof appSettings, 'setting_value' | 'updated_at'>;

/** The staking settings as stored (text, null when unset), and when the rate was last set. */
export type StakingSettingsRow = {
  daily_rate: Setting['setting_value'] | null;
  rate_updated_at: Setting['updated_at'] | null;
  program_start: Setting['setting_value'] | null;
};

/** Everything the staking board needs about one user, read in one query; wei as bigint. */
export type StakingOverviewRow = StakingSettingsRow & {
  /** 0 without an ETH wallet. */
  eth_balance: bigint;
  registered_at: Date;
  credited_total: bigint;
  /** Null before the user's first checkpoint. */
  state: StakingRow | null;
};

/** The staking row's columns as the board's join gives them: `state_…`, null without one. */
type JoinedState = { [K in keyof StakingRecord as `state_${K}`]: StakingRecord[K] | null };

type OverviewRecord = StakingSettingsRow &
  JoinedState & {
    eth_balance: ColumnsOf<typeof userWallets, 'balance_crypto'>['balance_crypto'] | null;
    registered_at: Date;
    credited_total: string;
  };

type Queryable = pg.Pool | TxClient;

const wei = (value: string) => toMinor('ETH', value);

function stakingRowOf(row: StakingRecord): StakingRow {
  return { ...row, accrued_pending: wei(row.accrued_pending) };
}

function joinedStateOf(row: JoinedState): StakingRow | null {
  if (
    row.state_user_id === null ||
    row.state_accrued_pending === null ||
    row.state_last_checkpoint_at === null ||
    row.state_daily_rate === null ||
    row.state_cycle_start_at === null
  ) {
    return null;
  }
  return stakingRowOf({
    user_id: row.state_user_id,
    accrued_pending: row.state_accrued_pending,
    last_checkpoint_at: row.state_last_checkpoint_at,
    daily_rate: row.state_daily_rate,
    cycle_start_at: row.state_cycle_start_at,
    staking_since: row.state_staking_since,
  });
}

const SETTINGS_SQL = `
  (SELECT setting_value FROM app_settings WHERE setting_key = 'staking_daily_rate') AS daily_rate,
  (SELECT updated_at FROM app_settings WHERE setting_key = 'staking_daily_rate') AS rate_updated_at,
  (SELECT setting_value FROM app_settings WHERE setting_key = 'staking_program_start') AS program_start`;

/** The staking module's SQL. Functions taking a TxClient run inside the caller's transaction. */
export const stakingRepository = {
  /**
   * The staking settings, read on the caller's connection: the ledger hook runs inside a
   * transaction and must not wait for a second pool connection.
   */
  async readSettings(db: Queryable): Promise<StakingSettingsRow> {
    const { rows } = await db.query<StakingSettingsRow>(`SELECT ${SETTINGS_SQL}`);
    return rows[0] ?? { daily_rate: null, rate_updated_at: null, program_start: null };
  },

  /**
   * Locks the user's ETH wallet and returns its balance in wei (0 without a wallet). The
   * credit job takes this lock before the staking row, in the ledger's order, so a credit
   * and a deposit of the same user wait for each other instead of deadlocking.
   */
  async lockEthBalance(client: TxClient, userId: string): Promise<bigint> {
    const { rows } = await client.query<ColumnsOf<typeof userWallets, 'balance_crypto'>>(
      `SELECT balance_crypto FROM user_wallets WHERE user_id = $1 AND asset_id = 'ETH' FOR UPDATE`,
      [userId],
    );
    const balance = rows[0]?.balance_crypto;
    return balance === undefined ? 0n : wei(balance);
  },

  async lockState(client: TxClient, userId: string): Promise<StakingRow | null> {
    const { rows } = await client.query<StakingRecord>(
      `SELECT user_id, accrued_pending, last_checkpoint_at, daily_rate, cycle_start_at, staking_since
         FROM user_staking WHERE user_id = $1 FOR UPDATE`,
      [userId],
    );
    const row = rows[0];
    return row ? stakingRowOf(row) : null;
  },

  /** The registration date of (the account's creation if no profile). */
  async registeredAt(client: TxClient, userId: string): Promise<Date> {
    const { rows } = await client.query<{ registered_at: Date }>(
      `SELECT COALESCE(p.registration_date, u.created_at) AS registered_at
         FROM users u LEFT JOIN user_profiles p ON p.id = u.id WHERE u.id = $1`,
      [userId],
    );
    const row = rows[0];
    if (!row) throw new Error(`user ${userId} not found`);
    return row.registered_at;
  },

  /** Creates the row unless it exists (a concurrent first checkpoint may have made it). */
  async insertState(
    client: TxClient,
    s: { userId: string; lastCheckpointAt: Date; dailyRate: string; cycleStartAt: Date },
  ): Promise<void> {
    await client.query(
      `INSERT INTO user_staking (user_id, last_checkpoint_at, daily_rate, cycle_start_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT (user_id) DO NOTHING`,
      [s.userId, s.lastCheckpointAt, s.dailyRate, s.cycleStartAt],
    );
  },

  async saveState(
    client: TxClient,
    s: {
      userId: string;
      accruedPending: string;
      lastCheckpointAt: Date;
      dailyRate: string;
      cycleStartAt: Date;
      stakingSince: Date | null;
    },
  ): Promise<void> {
    await client.query(
      `UPDATE user_staking SET accrued_pending = $2, last_checkpoint_at = $3, daily_rate = $4,
              cycle_start_at = $5, staking_since = $6, updated_at = now()
        WHERE user_id = $1`,
      [s.userId, s.accruedPending, s.lastCheckpointAt, s.dailyRate, s.cycleStartAt, s.stakingSince],
    );
  },

  /**
   * One query for the board: wallet, staking row, registration, settings and what the
   * ledger credited (rewards an admin deleted are not counted, as the balance does not).
   */
  async overview(db: Queryable, userId: string): Promise<StakingOverviewRow | null> {
    const { rows } = await db.query<OverviewRecord>({
      // Named: the board is polled every 2 s, so PostgreSQL plans this once per connection.
      name: 'staking_overview',
      text: `SELECT w.balance_crypto AS eth_balance,
              COALESCE(p.registration_date, u.created_at) AS registered_at,
              (SELECT COALESCE(SUM(t.crypto_amount), 0) FROM transactions t
                WHERE t.user_id = u.id AND t.transaction_type = 'staking_reward'
                  AND t.status = 'completed' AND t.deleted_at IS NULL) AS credited_total,
              s.user_id AS state_user_id,
              s.accrued_pending AS state_accrued_pending,
              s.last_checkpoint_at AS state_last_checkpoint_at,
              s.daily_rate AS state_daily_rate,
              s.cycle_start_at AS state_cycle_start_at,
              s.staking_since AS state_staking_since,
              ${SETTINGS_SQL}
         FROM users u
         LEFT JOIN user_profiles p ON p.id = u.id
         LEFT JOIN user_wallets w ON w.user_id = u.id AND w.asset_id = 'ETH'
         LEFT JOIN user_staking s ON s.user_id = u.id
        WHERE u.id = $1`,
      values: [userId],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      daily_rate: row.daily_rate,
      rate_updated_at: row.rate_updated_at,
      program_start: row.program_start,
      eth_balance: row.eth_balance === null ? 0n : wei(row.eth_balance),
      registered_at: row.registered_at,
      credited_total: wei(row.credited_total),
      state: joinedStateOf(row),
    };
  },

  /** Customers (not staff) holding ETH: the board's "active stakers". */
  async countActiveStakers(db: Queryable): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM user_wallets w
        WHERE w.asset_id = 'ETH' AND w.balance_crypto > 0
          AND NOT EXISTS (SELECT 1 FROM admin_users a WHERE a.user_id = w.user_id)`,
    );
    return rows[0]?.n ?? 0;
  },

  /**
   * Users whose current cycle started at or before `startedBy` (so it has ended) and who
   * have something to credit, by user id after `afterUserId`. A user without ETH and
   * without pending accrual is left alone: nothing is owed, and the next checkpoint moves
   * the cycle onto the current window.
   */
  async findDue(
    db: Queryable,
    startedBy: Date,
    afterUserId: string,
    limit: number,
  ): Promise<string[]> {
    const { rows } = await db.query<ColumnsOf<typeof userStaking, 'user_id'>>(
      `SELECT s.user_id FROM user_staking s
         LEFT JOIN user_wallets w ON w.user_id = s.user_id AND w.asset_id = 'ETH'
        WHERE s.cycle_start_at <= $1 AND s.user_id > $2
          AND (s.accrued_pending > 0 OR COALESCE(w.balance_crypto, 0) > 0)
        ORDER BY s.user_id LIMIT $3`,
      [startedBy, afterUserId, limit],
    );
    return rows.map((r) => r.user_id);
  },

  /** Users still accruing at another rate than `rate`, by user id after `afterUserId`. */
  async findOtherRate(
    db: Queryable,
    rate: string,
    afterUserId: string,
    limit: number,
  ): Promise<string[]> {
    const { rows } = await db.query<ColumnsOf<typeof userStaking, 'user_id'>>(
      `SELECT user_id FROM user_staking WHERE daily_rate <> $1::numeric AND user_id > $2
        ORDER BY user_id LIMIT $3`,
      [rate, afterUserId, limit],
    );
    return rows.map((r) => r.user_id);
  },
};
