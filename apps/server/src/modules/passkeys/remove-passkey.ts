import type { TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { mailTime } from '@server/lib/mail-time';
import type { SessionContext } from '../sessions';
import { passkeysRepository as repo } from './passkeys.repository';
import { adminsMustUsePasskey, PASSKEY_MSG, type PasskeysContext } from './passkeys-context';

/**
 * Removes a passkey with a fresh second factor (step-up: a code, a backup code or a
 * passkey's answer), used up in the same transaction as the removal and its mail.
 */
export async function removePasskey(
  ctx: PasskeysContext,
  s: SessionContext,
  id: string,
  proof: TStepUp,
  client: Client,
): Promise<void> {
  const target = await repo.findById(ctx.pool, s.userId, id);
  if (!target) throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
  await ctx.securityHold.assertClear(ctx.pool, s.userId);
  // The last factor that can still sign this admin in is not removed.
  if ((await adminsMustUsePasskey(ctx, s)) && (await repo.countForUser(ctx.pool, s.userId)) <= 1)
    throw new AppError('CONFLICT', PASSKEY_MSG.lastAdminPasskey);
  await withTransaction(ctx.pool, async (tx) => {
    await ctx.stepUp.confirm(tx, s, proof, client);
    if (!(await repo.remove(tx, s.userId, id)))
      throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
    await ctx.securityLog.record(tx, {
      userId: s.userId,
      kind: 'passkey-removed',
      client,
      detail: target.name,
    });
    await ctx.outbox.mail(tx, {
      to: s.email,
      subject: 'A passkey was removed from your Coffer account',
      text: `The passkey named "${target.name}" was removed from your Coffer account and can no longer be used to sign in.\n\nTime: ${mailTime(new Date())}\nAddress: ${client.ip}\n\nIf this was not you, someone is signed in to your account: change your password in Settings (${ctx.settingsUrl}), sign out every device you do not recognise and contact support.\n`,
    });
  });
  await ctx.outbox.deliver();
}
