import {
  STAFF_MANAGE_MSG,
  type TAdminTwoFactorState,
  type TPendingChange,
  type TStepUp,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { endSessions } from '../sessions';
import type { StaffActor } from '../staff-changes';
import { usersManagementRepository as repo } from './admin-users.repository';
import type { AdminUsersContext } from './admin-users-context';
import { STAFF_TWO_FACTOR_RESET } from './staff-two-factor-reset';

/** Staff became staff between the look-up and the lock: their reset is a proposal. */
const BECAME_STAFF =
  'This account is staff now: resetting its second factor is proposed for an owner to approve. Try again.';

/**
 * Turns a second factor off. A customer's: one compliance person, with a reason (the
 * schema asks for it) and their fresh second factor; the factor and passkeys go, every
 * session ends, a security hold starts with its mail (which gives the reason), and the
 * audit row names who, whom and why, all in one transaction. A staff member's: proposed
 * (`staff.2fa.reset`, 202), applied with the same effects when an owner other than the
 * proposer and the staff member approves it (`staff-two-factor-reset.ts`): taking away a
 * staff member's factor opens their account to whoever holds their password. Never on
 * oneself: that would be a second factor the holder can wave away.
 */
export async function disableTwoFactor(
  ctx: AdminUsersContext,
  actor: StaffActor,
  userId: string,
  reason: string,
  stepUp: TStepUp,
): Promise<{ state: TAdminTwoFactorState } | { pending: TPendingChange }> {
  if (userId === actor.userId) throw new AppError('FORBIDDEN', STAFF_MANAGE_MSG.resetSelf);
  const kind = await repo.accountKind(ctx.pool, userId);
  if (!kind) throw new AppError('NOT_FOUND', 'User not found');
  if (kind.is_admin) {
    const pending = await ctx.changes.propose(
      actor,
      STAFF_TWO_FACTOR_RESET,
      { userId, reason },
      stepUp,
    );
    return { pending };
  }
  const result = await withTransaction(ctx.pool, async (client) => {
    const before = await repo.lockAccount(client, userId);
    if (!before) throw new AppError('NOT_FOUND', 'User not found');
    if (before.is_admin) throw new AppError('CONFLICT', BECAME_STAFF);
    if (!before.two_factor_enabled) throw new AppError('CONFLICT', STAFF_MANAGE_MSG.noFactor);
    await ctx.stepUp.confirm(client, actor.session, stepUp, actor.client);
    await repo.removeTwoFactor(client, userId);
    // Every device is signed out: a session that passed the old factor must not outlive it.
    const sessionsEnded = await endSessions(client, userId);
    // Taking a factor away starts a security hold too, with its mail (S10).
    await ctx.securityHold.start(client, {
      userId,
      email: before.email,
      event: 'admin-two-factor-disable',
      from: null,
      reason,
    });
    await ctx.securityLog.record(client, { userId, kind: 'two-factor-disabled-by-staff' });
    await ctx.audit.record(client, {
      actorId: actor.userId,
      action: 'user.2fa.disable',
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
  return {
    state: { id: userId, twoFactorRequired: result.two_factor_required, twoFactorEnabled: false },
  };
}
