import type { TAdminTwoFactorState, TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { usersManagementRepository as repo } from './admin-users.repository';
import { type Actor, type AdminUsersContext, lockEnabled } from './admin-users-context';

/**
 * '2FA Required'. Waiving it weakens the account: it takes a reason (the
 * schema asks for one), kept in the audit row, and the customer is told by e-mail. Either
 * way it takes the acting staff member's fresh second factor (step-up), confirmed on the
 * change's transaction after the other checks, so a refused request costs no code.
 */
export async function setTwoFactorRequired(
  ctx: AdminUsersContext,
  actor: Actor,
  userId: string,
  required: boolean,
  reason: string | null,
  stepUp: TStepUp,
): Promise<TAdminTwoFactorState> {
  const state = await withTransaction(ctx.pool, async (client) => {
    const before = await lockEnabled(client, userId);
    await ctx.stepUp.confirm(client, actor.session, stepUp, actor.client);
    await repo.setRequired(client, userId, required);
    if (!required && before.two_factor_required) {
      await ctx.outbox.mail(client, {
        to: before.email,
        subject: 'Two-factor authentication is no longer required on your Coffer account',
        text: `Coffer support no longer requires two-factor authentication on your account: signing in now needs only your password.\n\nWe recommend keeping two-factor authentication on. If you did not ask for this, contact support at once.\n\n${ctx.publicUrl}/dashboard/settings\n`,
      });
      // The customer's own security activity shows it too, with the change.
      await ctx.securityLog.record(client, { userId, kind: 'two-factor-waived-by-staff' });
    }
    await ctx.audit.record(client, {
      actorId: actor.adminId,
      action: 'user.2fa.require',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { twoFactorRequired: before.two_factor_required },
      after: { twoFactorRequired: required },
      reason,
      ip: actor.ip,
    });
    return {
      id: userId,
      twoFactorRequired: required,
      twoFactorEnabled: before.two_factor_enabled,
    };
  });
  await ctx.outbox.deliver();
  return state;
}
