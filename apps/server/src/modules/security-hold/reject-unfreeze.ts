import type { TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { securityHoldRepository as repo } from './security-hold.repository';
import {
  lockPending,
  type SecurityHoldContext,
  type StaffActor,
  unfreezeState,
} from './security-hold-context';

/** An admin (the one who asked, or another) turns the request down: the account stays shut. */
export async function rejectUnfreeze(
  deps: SecurityHoldContext,
  actor: StaffActor,
  userId: string,
  reason: string,
  proof: TStepUp,
) {
  return withTransaction(deps.pool, async (client) => {
    const { pending } = await lockPending(client, userId);
    await deps.stepUp.confirm(client, actor.session, proof, actor.client);
    await repo.decideUnfreeze(client, {
      id: pending.id,
      decision: 'rejected',
      decidedBy: actor.session.userId,
      reason,
    });
    await deps.securityLog.record(client, { userId, kind: 'unfreeze-rejected' });
    await deps.audit.record(client, {
      actorId: actor.session.userId,
      action: 'user.unfreeze.reject',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: {
        requestId: pending.id,
        requestedBy: pending.requestedBy,
        requestReason: pending.reason,
      },
      after: { rejectedBy: actor.session.userId },
      reason,
      ip: actor.client.ip,
    });
    return unfreezeState(client, userId);
  });
}
