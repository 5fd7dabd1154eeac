import {
  normaliseRoles,
  STAFF_MANAGE_MSG,
  type TStaffRemovedResponse,
  type TStepUp,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { endSessions } from '../sessions';
import type { StaffActor } from '../staff-changes';
import { staffRepository as repo } from './staff.repository';
import { assertOwnerRemains, lockMember, type StaffContext } from './staff-context';

/**
 * Removes a staff member, one owner, at once: it only takes access away, so waiting for a
 * second person would only keep a departing member's access open longer. Their
 * `admin_users` row goes (the account stays, a plain account with no back office) and every
 * session of theirs ends, in one transaction with the audit row. Never oneself (another
 * owner removes you), never the last owner (judged under every staff row's lock).
 */
export async function removeStaff(
  ctx: StaffContext,
  actor: StaffActor,
  userId: string,
  proof: TStepUp,
): Promise<TStaffRemovedResponse> {
  if (userId === actor.userId) throw new AppError('FORBIDDEN', STAFF_MANAGE_MSG.removeSelf);
  return withTransaction(ctx.pool, async (client) => {
    const { all, member } = await lockMember(client, userId);
    assertOwnerRemains(all, member, []);
    await ctx.stepUp.confirm(client, actor.session, proof, actor.client);
    await repo.remove(client, userId);
    const sessionsEnded = await endSessions(client, userId);
    await ctx.audit.record(client, {
      actorId: actor.userId,
      action: 'staff.remove',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { email: member.email, roles: normaliseRoles(member.roles) },
      after: { staff: false, sessionsEnded },
      reason: null,
      ip: actor.ip,
    });
    return { id: userId, email: member.email, sessionsEnded };
  });
}
