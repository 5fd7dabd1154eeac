import type { TPasskey, TStepUp } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { mailTime } from '@server/lib/mail-time';
import type { SessionContext } from '../sessions';
import { passkeysRepository as repo } from './passkeys.repository';
import { PASSKEY_MSG, type PasskeysContext, present } from './passkeys-context';

/**
 * Renames a passkey with a fresh second factor, as a removal asks: the names are what the
 * owner reads in their mails and log to tell their passkeys apart, so someone holding only a
 * session must not be able to relabel one (say, call a passkey they added "Work laptop").
 * The old and the new name go to the security log and to the owner.
 */
export async function renamePasskey(
  ctx: PasskeysContext,
  s: SessionContext,
  input: { id: string; name: string; stepUp: TStepUp },
  client: Client,
): Promise<TPasskey> {
  // An unknown id is told before the step-up, so a mistyped link never costs a code.
  const target = await repo.findById(ctx.pool, s.userId, input.id);
  if (!target) throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
  const row = await withTransaction(ctx.pool, async (tx) => {
    await ctx.stepUp.confirm(tx, s, input.stepUp, client);
    const renamed = await repo.rename(tx, s.userId, input.id, input.name);
    if (!renamed) throw new AppError('NOT_FOUND', PASSKEY_MSG.unknown);
    await ctx.securityLog.record(tx, {
      userId: s.userId,
      kind: 'passkey-renamed',
      client,
      detail: `"${target.name}" → "${renamed.name}"`,
    });
    await ctx.outbox.mail(tx, {
      to: s.email,
      subject: 'A passkey was renamed on your Coffer account',
      text: `The passkey named "${target.name}" on your Coffer account is now named "${renamed.name}". It still works as before.\n\nTime: ${mailTime(new Date())}\nAddress: ${client.ip}\n\nIf this was not you, someone is signed in to your account: check your passkeys in Settings (${ctx.settingsUrl}), change your password, sign out every device you do not recognise and contact support.\n`,
    });
    return renamed;
  });
  await ctx.outbox.deliver();
  return present(row);
}
