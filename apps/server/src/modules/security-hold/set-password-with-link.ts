import { FROZEN_MSG } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { sha256Hex } from '@server/lib/crypto';
import { assertStrongPassword, hashPassword } from '@server/lib/password';
import { endSessions } from '../sessions';
import { securityHoldRepository as repo } from './security-hold.repository';
import { type SecurityHoldContext, whenText } from './security-hold-context';

/**
 * The link mailed after an unfreeze: the owner's new password (the sign-up rule), every
 * session ended, and sign-in works again. The link works once.
 */
export async function setPasswordWithLink(
  deps: SecurityHoldContext,
  token: string,
  newPassword: string,
  from: Client,
): Promise<void> {
  const hash = sha256Hex(token);
  const owner = await repo.setPasswordTokenOwner(deps.pool, hash);
  if (!owner) throw new AppError('NOT_FOUND', FROZEN_MSG.setPasswordLinkInvalid);
  await assertStrongPassword(newPassword, owner.email);
  const passwordHash = await hashPassword(newPassword);
  await withTransaction(deps.pool, async (client) => {
    // Used up here, under its row lock: a second use (or a parallel one) finds it used.
    const userId = await repo.useSetPasswordToken(client, hash);
    if (userId !== owner.userId) throw new AppError('NOT_FOUND', FROZEN_MSG.setPasswordLinkInvalid);
    await repo.setNewPassword(client, userId, passwordHash);
    const ended = await endSessions(client, userId);
    await deps.securityLog.record(client, {
      userId,
      kind: 'password-set-by-link',
      client: from,
      detail: ended > 0 ? 'Every device was signed out' : null,
    });
    await deps.outbox.mail(client, {
      to: owner.email,
      subject: 'Your new Coffer password is set',
      text: `The new password of your Coffer account is set: you can sign in with it now.\n\nWhen: ${whenText(new Date())}\nFrom: ${from.ip}\n\nIf this was not you, contact support at once.\n`,
    });
  });
  await deps.outbox.deliver();
}
