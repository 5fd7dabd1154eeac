import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { sha256Hex } from '@server/lib/crypto';
import { endSessions } from '../sessions';
import { securityHoldRepository as repo } from './security-hold.repository';
import { type SecurityHoldContext, whenText } from './security-hold-context';

/**
 * "This wasn't me": the link freezes the account (every session ends, nothing moves) until
 * staff review it. Written to the audit log with no actor: the customer acted by link.
 */
export async function freezeAccount(
  deps: SecurityHoldContext,
  token: string,
  ip: string,
): Promise<void> {
  const frozen = await withTransaction(deps.pool, async (client) => {
    const userId = await repo.useFreezeToken(client, sha256Hex(token));
    if (!userId) {
      throw new AppError(
        'NOT_FOUND',
        'This link is no longer valid. If you think someone else is using your account, contact support at once.',
      );
    }
    const email = await repo.freeze(client, userId);
    if (email === null) return false;
    const sessionsEnded = await endSessions(client, userId);
    await deps.securityLog.record(client, {
      userId,
      kind: 'account-frozen',
      client: { ip, userAgent: undefined },
      detail: 'With the "This wasn\'t me" link; every device was signed out',
    });
    await deps.outbox.mail(client, {
      to: email,
      subject: 'Your Coffer account is frozen',
      text: `Your Coffer account is frozen, as you asked, and every device was signed out. Nothing can be withdrawn or paid out until Coffer support has reviewed it with you: contact support.\n\nWhen: ${whenText(new Date())}\nFrom: ${ip}\n`,
    });
    await deps.audit.record(client, {
      actorId: null,
      action: 'user.freeze',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { frozen: false },
      after: { frozen: true, sessionsEnded },
      reason: 'The customer\'s "This wasn\'t me" link',
      ip,
    });
    return true;
  });
  if (frozen) await deps.outbox.deliver();
}
