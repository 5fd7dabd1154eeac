import type { TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { securityHoldRepository as repo } from './security-hold.repository';
import {
  auditUnfreezeStep,
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
    await auditUnfreezeStep(deps, client, actor, userId, {
      action: 'user.unfreeze.reject',
      before: {
        requestId: pending.id,
        requestedBy: pending.requestedBy,
        requestReason: pending.reason,
      },
      after: { rejectedBy: actor.session.userId },
      reason,
    });
    return unfreezeState(client, userId);
  });
}
