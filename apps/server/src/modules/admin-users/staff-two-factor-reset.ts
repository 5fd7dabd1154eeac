import { STAFF_MANAGE_MSG } from '@coffer/shared';
import type { TxClient } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { endSessions } from '../sessions';
import type { ChangeKind } from '../staff-changes';
import { usersManagementRepository as repo } from './admin-users.repository';
import type { AdminUsersContext } from './admin-users-context';

/** The kind name of a staff member's second-factor reset. */
export const STAFF_TWO_FACTOR_RESET = 'staff.2fa.reset';

/** A staff member's reset as the change stores it: whom, and why (told to them and audited). */
export type StaffResetPayload = { userId: string; reason: string };

/** The staff member's profile locked, still staff and with a factor to reset. */
async function lockStaffWithFactor(client: TxClient, userId: string) {
  const row = await repo.lockAccount(client, userId);
  if (!row?.is_admin) throw new AppError('NOT_FOUND', STAFF_MANAGE_MSG.notStaff);
  if (!row.two_factor_enabled) throw new AppError('CONFLICT', STAFF_MANAGE_MSG.noFactor);
  return row;
}

/**
 * Another staff member's second factor reset, two people: staff never use the recovery
 * phrase, so a locked-out staff member is restored by others. One proposes (compliance from
 * the users screen, or an owner from the Staff screen), with a reason; another owner
 * approves (`staff.manage`), never the proposer nor the staff member. On approval, in its
 * transaction: the authenticator, backup codes and passkeys go, every session ends, a
 * security hold starts with its mail ("This wasn't me" link, the reason given), the security
 * log says so, and the audit row (`admin.2fa.reset`, as the operator's `reset-admin-2fa`
 * writes) is the approval's. A newer proposal for the same member replaces a pending one.
 */
export function staffTwoFactorResetKind(ctx: AdminUsersContext): ChangeKind<StaffResetPayload> {
  return {
    kind: STAFF_TWO_FACTOR_RESET,
    approvedWith: 'staff.manage',
    auditAction: 'admin.2fa.reset',
    async describe(client, payload, proposer) {
      if (payload.userId === proposer.userId) {
        throw new AppError('FORBIDDEN', STAFF_MANAGE_MSG.resetSelf);
      }
      const row = await lockStaffWithFactor(client, payload.userId);
      return {
        summary: `Reset the second factor of ${row.email}: ${payload.reason}`,
        before: { email: row.email, twoFactorEnabled: true },
        after: { email: row.email, twoFactorEnabled: false, reason: payload.reason },
        subjectUserId: row.id,
        targetKey: row.id,
        payload: { userId: row.id, reason: payload.reason },
      };
    },
    async apply(client, payload) {
      const row = await lockStaffWithFactor(client, payload.userId);
      await repo.removeTwoFactor(client, row.id);
      // A session that passed the old factor must not outlive it.
      const sessionsEnded = await endSessions(client, row.id);
      // The hold stops every change they would make for `security_hold_hours`; its mail
      // gives the reason and the "This wasn't me" link. Staff need a factor again at once.
      await ctx.securityHold.start(client, {
        userId: row.id,
        email: row.email,
        event: 'staff-two-factor-reset',
        from: null,
        reason: payload.reason,
      });
      await ctx.securityLog.record(client, { userId: row.id, kind: 'two-factor-reset-by-staff' });
      return { sessionsEnded };
    },
  };
}
