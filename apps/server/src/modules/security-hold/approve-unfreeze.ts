import { randomBytes } from 'node:crypto';
import type { TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { sha256Hex } from '@server/lib/crypto';
import { endSessions } from '../sessions';
import { securityHoldRepository as repo } from './security-hold.repository';
import {
  auditUnfreezeStep,
  freezeBefore,
  holdHours,
  lockPending,
  type SecurityHoldContext,
  type StaffActor,
  UNFREEZE_MSG,
  unfreezeState,
  whenText,
} from './security-hold-context';

/** How long the set-password link mailed after an unfreeze works. */
const SET_PASSWORD_LINK_HOURS = 72;
/**
 * A second admin approves: the freeze ends, but the password does not come back (whoever
 * caused the freeze may know it). The owner gets a link to set a new one; until then
 * sign-in still refuses. Money waits `security_hold_hours` from now, as after any reset.
 */
export async function approveUnfreeze(
  deps: SecurityHoldContext,
  actor: StaffActor,
  userId: string,
  proof: TStepUp,
) {
  const result = await withTransaction(deps.pool, async (client) => {
    const { locked, pending } = await lockPending(client, userId);
    // Four eyes: refused before the step-up, so it costs the admin no code.
    if (pending.requestedBy === actor.session.userId)
      throw new AppError('FORBIDDEN', UNFREEZE_MSG.ownRequest);
    await deps.stepUp.confirm(client, actor.session, proof, actor.client);
    await repo.decideUnfreeze(client, {
      id: pending.id,
      decision: 'approved',
      decidedBy: actor.session.userId,
      reason: null,
    });
    await repo.unfreezeAwaitingPassword(client, userId);
    // Nothing should be signed in (the freeze ended every session and refuses new ones);
    // ended again here so that nothing survives the review whatever happened meanwhile.
    const sessionsEnded = await endSessions(client, userId);
    const token = randomBytes(32).toString('base64url');
    await repo.addSetPasswordToken(client, userId, sha256Hex(token), SET_PASSWORD_LINK_HOURS);
    const until = await repo.start(client, userId, holdHours(await deps.settings.all(client)));
    await deps.securityLog.record(client, {
      userId,
      kind: 'account-unfrozen',
      detail: 'Reviewed by two Coffer admins; a new password is needed to sign in',
    });
    await deps.securityLog.record(client, {
      userId,
      kind: 'security-hold-started',
      detail: `Payouts, bank details and factor changes paused until ${whenText(until)}`,
    });
    const link = `${deps.publicUrl}/set-password?token=${token}`;
    await deps.outbox.mail(client, {
      to: locked.email,
      subject: 'Your Coffer account is unfrozen: set a new password',
      text: [
        'Coffer support has reviewed your account with you and lifted the freeze.',
        '',
        'Your old password no longer works: whoever caused the freeze may know it. Set a new password with this link, then sign in:',
        link,
        '',
        `The link works once, for ${SET_PASSWORD_LINK_HOURS} hours. Setting the password signs out every device.`,
        '',
        `For your safety, withdrawals, bank transfers, changes to your bank details and to two-factor authentication stay on hold until ${whenText(until)}.`,
        '',
        'If you did not ask Coffer support to lift the freeze, do not use the link: contact support at once.',
      ].join('\n'),
    });
    await auditUnfreezeStep(deps, client, actor, userId, {
      action: 'user.unfreeze',
      before: {
        ...freezeBefore(locked),
        requestId: pending.id,
        requestedBy: pending.requestedBy,
      },
      after: {
        frozen: false,
        approvedBy: actor.session.userId,
        newPasswordRequired: true,
        holdUntil: until.toISOString(),
        sessionsEnded,
      },
      reason: pending.reason,
    });
    return unfreezeState(client, userId);
  });
  await deps.outbox.deliver();
  return result;
}
