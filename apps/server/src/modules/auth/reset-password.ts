import { MSG } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { assertStrongPassword, hashPassword } from '@server/lib/password';
import { LIMITS } from '../rate-limit';
import { endSessions } from '../sessions';
import { usersRepository as users } from './auth.repository';
import { type AuthContext, committed } from './auth-context';

/** Password reset with the recovery phrase: every session of the account ends. */
export async function resetPassword(
  ctx: AuthContext,
  phrase: string,
  newPassword: string,
  client: Client,
): Promise<void> {
  const attempt = await ctx.limiter.consume(LIMITS.passwordReset(client.ip));
  const userId = await ctx.phrases.findUserByPhrase(phrase);
  const user = userId ? await users.findById(ctx.pool, userId) : null;
  // Staff are never restored by a phrase alone: another admin does it, audited. A staff
  // phrase is answered as a wrong one, and counted as one, so that this public form does
  // not tell whoever holds a phrase that it opens a staff account.
  if (!user || (await users.isAdmin(ctx.pool, user.id))) {
    throw new AppError('INVALID_RECOVERY_PHRASE', MSG.invalidRecoveryPhrase);
  }
  await attempt.release();
  // A frozen account is not recovered by the phrase either (it may be what was stolen):
  // staff review it, and then the owner sets a new password from the mailed link.
  const refusal = await ctx.securityHold.signInRefusal(user.id);
  if (refusal) throw new AppError('ACCOUNT_FROZEN', refusal);
  await assertStrongPassword(newPassword, user.email);
  const passwordHash = await hashPassword(newPassword);
  // The new password, the sign-out everywhere and the notice commit together.
  await committed(ctx, async (tx) => {
    await users.setPassword(tx, user.id, passwordHash);
    await endSessions(tx, user.id);
    // The phrase is burnt (a new one must be made) and a security hold starts: its mail
    // says what happened, from where, and carries the "This wasn't me" link.
    await ctx.phrases.burn(tx, user.id);
    // Logged before the hold it causes, so the newest-first list reads hold, then reset.
    await ctx.securityLog.record(tx, { userId: user.id, kind: 'password-reset', client });
    await ctx.securityHold.start(tx, {
      userId: user.id,
      email: user.email,
      event: 'password-reset',
      from: client,
    });
  });
}
