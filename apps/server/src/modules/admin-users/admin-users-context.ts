import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { ChainAdapter } from '../chains';
import type { LedgerCheck } from '../ledger';
import type { Outbox } from '../outbox';
import type { PriceService } from '../prices';
import type { RateLimiter } from '../rate-limit';
import type { RecoveryPhraseService } from '../recovery-phrase';
import type { SecurityHold } from '../security-hold';
import type { SecurityLog } from '../security-log';
import type { StaffChanges } from '../staff-changes';
import type { StepUp, StepUpSubject } from '../step-up';
import {
  type DirectoryRow,
  usersManagementRepository as repo,
  type SummaryRow,
} from './admin-users.repository';

/**
 * The acting admin and where the request came from, for the audit row; the session and
 * client whose fresh second factor confirms a factor change (step-up).
 */
export type Actor = { adminId: string; ip: string; session: StepUpSubject; client: Client };

/** How old the users screen's summary figures may be: its refresh interval. */
const SUMMARY_MAX_AGE_MS = 5_000;

export const presentDirectoryUser = (r: DirectoryRow) => ({
  id: r.id,
  email: r.email,
  fullName: r.full_name,
  username: r.username,
});

export type AdminUsersDeps = {
  pool: pg.Pool;
  settings: { all(): Promise<Map<string, string>> };
  prices: PriceService;
  outbox: Outbox;
  securityLog: SecurityLog;
  securityHold: SecurityHold;
  audit: AuditLog;
  limiter: RateLimiter;
  phrases: RecoveryPhraseService;
  stepUp: StepUp;
  /** Where a staff member's second-factor reset is proposed, and its kind registered. */
  changes: StaffChanges;
  ledgerCheck: LedgerCheck;
  chainAdapters: readonly ChainAdapter[];
  publicUrl: string;
  /** "Now" for the staking figures and the dashboard's check time. */
  clock: () => Date;
};

/**
 * What the parts of the admin users service share, built once by `createAdminUsersService`:
 * its dependencies and the users screen's cached summary count.
 */
export type AdminUsersContext = AdminUsersDeps & {
  summaryOf(fresh: boolean): Promise<SummaryRow>;
};

/** Turns 2FA off for a customer in the caller's transaction; the state before. */
export async function lockEnabled(client: import('pg').PoolClient, userId: string) {
  const row = await repo.lockCustomer(client, userId);
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return row;
}

/** The users screen's summary count, shared by the requests that come within its age. */
export function createSummaryCache(pool: pg.Pool): (fresh: boolean) => Promise<SummaryRow> {
  // The four summary figures count every customer (about 10 ms at 10,000, growing with
  // them), and the screen asks with every page and search. One count serves every request
  // for SUMMARY_MAX_AGE_MS, the screen's own refresh interval; Refresh Data asks afresh.
  let summaryCache: { at: number; value: Promise<SummaryRow> } | null = null;
  return function summaryOf(fresh: boolean): Promise<SummaryRow> {
    const now = Date.now();
    if (fresh || !summaryCache || now - summaryCache.at > SUMMARY_MAX_AGE_MS) {
      const value = repo.summary(pool);
      summaryCache = { at: now, value };
      // A failed count is not kept: the next request tries again.
      value.catch(() => {
        if (summaryCache?.value === value) summaryCache = null;
      });
    }
    return summaryCache.value;
  };
}
