import type { ColumnsOf } from '@server/db/rows';
import type { userProfiles, users } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

type Db = pg.Pool | TxClient;

/** A staff member as the Staff screen lists them: roles, factors and hold, never a secret. */
export type StaffListRow = ColumnsOf<typeof users, 'id' | 'email'> &
  ColumnsOf<typeof userProfiles, 'full_name' | 'username' | 'last_login' | 'two_factor_enabled'> & {
    roles: string[];
    passkeys: number;
    /** The end of a hold still running, else null. */
    hold_until: Date | null;
    frozen: boolean;
  };

/** A staff member's row as the changes to the staff read it under lock. */
export type StaffMemberRow = { user_id: string; email: string; roles: string[] };

/** The only code that writes `admin_users` after an account is made staff (auth makes them). */
export const staffRepository = {
  /** Every staff member, by e-mail: a back office has a handful. */
  async list(db: Db): Promise<StaffListRow[]> {
    const { rows } = await db.query<StaffListRow>(
      `SELECT u.id, u.email, p.full_name, p.username, p.last_login, p.two_factor_enabled, a.roles,
              (SELECT count(*)::int FROM passkeys k WHERE k.user_id = u.id) AS passkeys,
              CASE WHEN p.security_hold_until > now() THEN p.security_hold_until END AS hold_until,
              (p.frozen_at IS NOT NULL OR p.new_password_required_at IS NOT NULL) AS frozen
         FROM admin_users a JOIN users u ON u.id = a.user_id
         JOIN user_profiles p ON p.id = u.id
        ORDER BY u.email, u.id`,
    );
    return rows;
  },

  /**
   * Every staff member's roles, locked until the transaction ends, in one order (so two
   * changes lock alike and never deadlock): whether an owner remains is judged on rows no
   * parallel removal or role change can move meanwhile.
   */
  async lockAll(client: TxClient): Promise<StaffMemberRow[]> {
    const { rows } = await client.query<StaffMemberRow>(
      `SELECT a.user_id, u.email, a.roles
         FROM admin_users a JOIN users u ON u.id = a.user_id
        ORDER BY a.user_id FOR UPDATE OF a`,
    );
    return rows;
  },

  /** The staff member's roles, unlocked (a proposal's description), or null for none. */
  async find(db: Db, userId: string): Promise<StaffMemberRow | null> {
    const { rows } = await db.query<StaffMemberRow>(
      `SELECT a.user_id, u.email, a.roles
         FROM admin_users a JOIN users u ON u.id = a.user_id WHERE a.user_id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  },

  async emailTaken(db: Db, email: string): Promise<boolean> {
    const { rows } = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
    return rows.length > 0;
  },

  async setRoles(client: TxClient, userId: string, roles: readonly string[]): Promise<void> {
    await client.query('UPDATE admin_users SET roles = $2 WHERE user_id = $1', [userId, roles]);
  },

  /** Takes the back office away: the account stays, as a plain account. */
  async remove(client: TxClient, userId: string): Promise<void> {
    await client.query('DELETE FROM admin_users WHERE user_id = $1', [userId]);
  },
};
