import { MSG, type TStepUp } from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '../auth';
import { LIMITS } from '../rate-limit';
import { endSessions, type SessionContext } from '../sessions';
import { twoFactorRepository as repo } from './two-factor.repository';
import { factorMail, NOT_ENABLED, type TwoFactorContext } from './two-factor-context';

/** Turns 2FA off with a fresh second factor (step-up), and tells the owner, in one commit. */
export async function disableTwoFactor(
  ctx: TwoFactorContext,
  s: SessionContext,
  proof: TStepUp,
  client: Client,
): Promise<void> {
  if (!s.twoFactorEnabled) throw new AppError('CONFLICT', NOT_ENABLED);
  await ctx.securityHold.assertClear(ctx.pool, s.userId);
  await withTransaction(ctx.pool, async (tx) => {
    await ctx.stepUp.confirm(tx, s, proof, client);
    await repo.disable(tx, s.userId);
    await ctx.securityLog.record(tx, { userId: s.userId, kind: 'two-factor-disabled', client });
    await ctx.outbox.mail(tx, factorMail(ctx, s.email, false, client));
  });
  await ctx.outbox.deliver();
}

/**
 * The operator's `reset-admin-2fa`, for an admin locked out with no other admin to help:
 * the factor removed and every session ended, on the caller's transaction (which writes
 * the audit row and the mail with it). How many sessions ended.
 */
export async function resetForOperator(client: TxClient, userId: string): Promise<number> {
  await repo.disable(client, userId);
  return endSessions(client, userId);
}

/**
 * Turns 2FA off with the recovery phrase (for a user who lost the authenticator), ends
 * every other session and tells the user by e-mail. The gate then requires a new setup.
 */
export async function resetWithPhrase(
  ctx: TwoFactorContext,
  s: SessionContext,
  phrase: string,
  from: Client,
): Promise<void> {
  // Staff are never restored by a phrase alone: another admin (or the operator's
  // reset-admin-2fa) does it, audited. Refused before the phrase is even looked at.
  if (s.isAdmin) throw new AppError('FORBIDDEN', MSG.staffNoPhraseRecovery);
  // A second reset inside a hold is a factor change like any other: it waits.
  await ctx.securityHold.assertClear(ctx.pool, s.userId);
  const attempt = await ctx.limiter.consume(LIMITS.phrase(s.userId, from.ip));
  if (!(await ctx.phrases.matches(s.userId, phrase))) {
    throw new AppError('INVALID_RECOVERY_PHRASE', MSG.invalidRecoveryPhrase);
  }
  await attempt.release();
  // 2FA off, the other devices signed out and the notice: one commit.
  await withTransaction(ctx.pool, async (client) => {
    await repo.disable(client, s.userId);
    await endSessions(client, s.userId, s.sessionId);
    await ctx.securityLog.record(client, {
      userId: s.userId,
      kind: 'two-factor-reset',
      client: from,
    });
    // The phrase is burnt and a security hold starts, with its mail (S10).
    await ctx.phrases.burn(client, s.userId);
    await ctx.securityHold.start(client, {
      userId: s.userId,
      email: s.email,
      event: 'two-factor-reset',
      from,
    });
  });
  await ctx.outbox.deliver();
}
