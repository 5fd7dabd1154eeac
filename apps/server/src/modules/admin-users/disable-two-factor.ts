import type { TAdminTwoFactorState, TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { endSessions } from '../sessions';
import { usersManagementRepository as repo } from './admin-users.repository';
import type { Actor, AdminUsersContext } from './admin-users-context';

const STAFF_RESET_SELF =
  'You cannot turn off your own second factor here: another admin must do it, with a reason.';

/**
 * Turns a second factor off: a customer's or another admin's (staff cannot use the
 * phrase, so a locked-out admin is restored by another one). One path for both: a
 * reason (the schema asks for it), the acting admin's fresh second factor, then the
 * factor and passkeys go, every session ends, a security hold starts with its mail
 * (which gives the reason), and the audit row names who, whom and why, all in one
 * transaction. Never on oneself: that would be a second factor the holder can wave away.
 */
export async function disableTwoFactor(
  ctx: AdminUsersContext,
  actor: Actor,
  userId: string,
  reason: string,
  stepUp: TStepUp,
): Promise<TAdminTwoFactorState> {
  if (userId === actor.adminId) throw new AppError('FORBIDDEN', STAFF_RESET_SELF);
  const result = await withTransaction(ctx.pool, async (client) => {
    const before = await repo.lockAccount(client, userId);
    if (!before) throw new AppError('NOT_FOUND', 'User not found');
    const staff = before.is_admin;
    if (!before.two_factor_enabled)
      throw new AppError('CONFLICT', 'Two-factor authentication is not enabled.');
    await ctx.stepUp.confirm(client, actor.session, stepUp, actor.client);
    await repo.removeTwoFactor(client, userId);
    // Every device is signed out: a session that passed the old factor must not outlive it.
    const sessionsEnded = await endSessions(client, userId);
    // Taking a factor away starts a security hold too, with its mail (S10). An admin's
    // factor is always required again, so for staff it is a reset, and its mail says so.
    await ctx.securityHold.start(client, {
      userId,
      email: before.email,
      event: staff ? 'staff-two-factor-reset' : 'admin-two-factor-disable',
      from: null,
      reason,
    });
    await ctx.securityLog.record(client, {
      userId,
      kind: staff ? 'two-factor-reset-by-staff' : 'two-factor-disabled-by-staff',
    });
    await ctx.audit.record(client, {
      actorId: actor.adminId,
      // The same action the operator's reset-admin-2fa writes, so one filter finds both.
      action: staff ? 'admin.2fa.reset' : 'user.2fa.disable',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false, sessionsEnded },
      reason,
      ip: actor.ip,
    });
    return before;
  });
  await ctx.outbox.deliver();
  return { id: userId, twoFactorRequired: result.two_factor_required, twoFactorEnabled: false };
}
