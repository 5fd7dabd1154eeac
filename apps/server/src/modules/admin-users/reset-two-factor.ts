import {
  ADMIN_RESET_PHRASE_MISSING,
  MSG,
  type TAdminTwoFactorState,
  type TStepUp,
} from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Limit } from '../rate-limit';
import { endSessions } from '../sessions';
import { usersManagementRepository as repo } from './admin-users.repository';
import { type Actor, type AdminUsersContext, lockEnabled } from './admin-users-context';

const STAFF_PHRASE_REFUSED =
  "Staff accounts are never restored with a recovery phrase: reset this admin's 2FA with a reason instead.";
const FIFTEEN_MINUTES = 15 * 60;
/**
 * Wrong phrases typed by staff are counted per customer and per admin, apart from the
 * customer's own attempts: a support desk guessing cannot lock the customer out, and
 * cannot guess for long either.
 */
const resetLimits = (targetId: string, adminId: string): Limit[] => [
  { key: `admin-phrase:target:${targetId}`, max: 5, windowSeconds: FIFTEEN_MINUTES },
  { key: `admin-phrase:admin:${adminId}`, max: 10, windowSeconds: FIFTEEN_MINUTES },
];

/**
 * product.md S7: 2FA off with the customer's recovery phrase, checked against the keyed
 * hash; every session of the customer ends, the customer is told by e-mail.
 */
export async function resetTwoFactor(
  ctx: AdminUsersContext,
  actor: Actor,
  userId: string,
  phrase: string,
  stepUp: TStepUp,
): Promise<TAdminTwoFactorState> {
  const trimmed = phrase.trim();
  if (trimmed === '') throw new AppError('VALIDATION_FAILED', ADMIN_RESET_PHRASE_MISSING);
  const limits = resetLimits(userId, actor.adminId);
  const target = await repo.accountKind(ctx.pool, userId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  // Staff are never restored with a phrase: refused before any guess counts.
  if (target.is_admin) throw new AppError('FORBIDDEN', STAFF_PHRASE_REFUSED);
  const attempt = await ctx.limiter.consume(limits);
  if (!(await ctx.phrases.matches(userId, trimmed))) {
    throw new AppError('INVALID_RECOVERY_PHRASE', MSG.invalidRecoveryPhrase);
  }
  await attempt.release();
  const result = await withTransaction(ctx.pool, async (client) => {
    const before = await lockEnabled(client, userId);
    await ctx.stepUp.confirm(client, actor.session, stepUp, actor.client);
    await repo.removeTwoFactor(client, userId);
    const sessionsEnded = await endSessions(client, userId);
    // The phrase is burnt and a security hold starts (S10); its mail is queued with the
    // change, so the customer is told whenever it commits, even if the server stops.
    await ctx.phrases.burn(client, userId);
    await ctx.securityHold.start(client, {
      userId,
      email: before.email,
      event: 'admin-two-factor-reset',
      from: null,
    });
    await ctx.securityLog.record(client, { userId, kind: 'two-factor-reset-by-staff' });
    await ctx.audit.record(client, {
      actorId: actor.adminId,
      action: 'user.2fa.reset',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { twoFactorEnabled: before.two_factor_enabled },
      after: { twoFactorEnabled: false, sessionsEnded },
      reason: 'Recovery phrase checked',
      ip: actor.ip,
    });
    return { required: before.two_factor_required };
  });
  await ctx.outbox.deliver();
  await ctx.limiter.clear([limits[0]?.key ?? '']);
  return { id: userId, twoFactorRequired: result.required, twoFactorEnabled: false };
}
