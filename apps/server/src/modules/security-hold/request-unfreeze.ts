import type { TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { securityHoldRepository as repo } from './security-hold.repository';
import {
  auditUnfreezeStep,
  freezeBefore,
  lockFreeze,
  type SecurityHoldContext,
  type StaffActor,
  UNFREEZE_MSG,
  unfreezeState,
} from './security-hold-context';

/**
 * One admin asks to lift a freeze, after reviewing the account with its owner, saying
 * how; nothing changes for the customer until another admin approves.
 */
export async function requestUnfreeze(
  deps: SecurityHoldContext,
  actor: StaffActor,
  userId: string,
  reason: string,
  proof: TStepUp,
) {
  const state = await withTransaction(deps.pool, async (client) => {
    const locked = await lockFreeze(client, userId);
    // Unfrozen but still waiting for the owner's new password (the link expired or never
    // arrived): the same two admins send a new link, as the approval does.
    if (!locked.frozenAt && !locked.newPasswordRequiredAt)
      throw new AppError('CONFLICT', UNFREEZE_MSG.notFrozen);
    if (await repo.pendingUnfreeze(client, userId))
      throw new AppError('CONFLICT', UNFREEZE_MSG.alreadyRequested);
    await deps.stepUp.confirm(client, actor.session, proof, actor.client);
    await repo.addUnfreezeRequest(client, {
      userId,
      requestedBy: actor.session.userId,
      reason,
    });
    // Staff's reason stays in the audit log: it may name what the customer told support.
    await deps.securityLog.record(client, { userId, kind: 'unfreeze-requested' });
    await auditUnfreezeStep(deps, client, actor, userId, {
      action: 'user.unfreeze.request',
      before: freezeBefore(locked),
      after: { unfreezeRequested: true },
      reason,
    });
    return unfreezeState(client, userId);
  });
  return state;
}
