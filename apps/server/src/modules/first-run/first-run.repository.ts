import type { TKycProgress } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { kycSubmissions, userProfiles } from '@server/db/schema/index';
import type pg from 'pg';

/** The first-run steps of one customer, as the checklist shows them. */
export type FirstRunState = {
  kyc: TKycProgress;
  deposited: boolean;
  passkey: boolean;
  dismissed: boolean;
};

const KYC_PROGRESS = {
  pending: 'submitted',
  approved: 'approved',
  rejected: 'rejected',
} as const satisfies Record<string, TKycProgress>;

export const firstRunRepository = {
  /**
   * Everything the checklist shows in one statement: the identity check's state, whether a
   * deposit was ever completed, whether a passkey exists, and whether it was closed.
   */
  async stateOf(db: pg.Pool, userId: string): Promise<FirstRunState> {
    const { rows } = await db.query<
      { kyc_status: ColumnsOf<typeof kycSubmissions, 'status'>['status'] | null } & {
        deposited: boolean;
        passkey: boolean;
      } & ColumnsOf<typeof userProfiles, 'first_run_dismissed_at'>
    >(
      `SELECT (SELECT status FROM kyc_submissions WHERE user_id = $1) AS kyc_status,
              EXISTS (SELECT 1 FROM transactions
                       WHERE user_id = $1 AND transaction_type = 'deposit'
                         AND status = 'completed' AND deleted_at IS NULL) AS deposited,
              EXISTS (SELECT 1 FROM passkeys WHERE user_id = $1) AS passkey,
              (SELECT first_run_dismissed_at FROM user_profiles WHERE id = $1)
                AS first_run_dismissed_at`,
      [userId],
    );
    const row = rows[0];
    if (!row) throw new Error('the first-run statement returned no row');
    return {
      kyc: row.kyc_status === null ? 'not-started' : KYC_PROGRESS[row.kyc_status],
      deposited: row.deposited,
      passkey: row.passkey,
      dismissed: row.first_run_dismissed_at !== null,
    };
  },

  /** Closes the checklist for good; closing it again keeps the first time. */
  async dismiss(db: pg.Pool, userId: string): Promise<void> {
    await db.query(
      `UPDATE user_profiles SET first_run_dismissed_at = coalesce(first_run_dismissed_at, now())
        WHERE id = $1`,
      [userId],
    );
  },
};
