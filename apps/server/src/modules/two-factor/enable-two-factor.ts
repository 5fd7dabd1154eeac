import { MSG, type TTwoFactorEnableRequest } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { matchTotpStep } from '@server/lib/totp';
import type { Client } from '../auth';
import { endSessions, type SessionContext } from '../sessions';
import { twoFactorRepository as repo } from './two-factor.repository';
import {
  ALREADY_ENABLED,
  assertMayAdd,
  backupHash,
  factorMail,
  limited,
  NO_PENDING_SETUP,
  pendingOf,
  type TwoFactorContext,
} from './two-factor-context';

/**
 * Confirms this session's pending setup: the words of the new recovery phrase first
 * (when it shows one), then the authenticator code. The session counts as verified and
 * gets a new token; the phrase is stored with the factor, in one commit.
 */
export async function enableTwoFactor(
  ctx: TwoFactorContext,
  s: SessionContext,
  input: TTwoFactorEnableRequest,
  client: Client,
): Promise<string> {
  await assertMayAdd(ctx, s);
  if (s.twoFactorEnabled) throw new AppError('CONFLICT', ALREADY_ENABLED);
  const row = await repo.find(ctx.pool, s.userId);
  const pending = row && pendingOf(ctx, row, s);
  if (!pending) throw new AppError('CONFLICT', NO_PENDING_SETUP);
  if (pending.phrase) {
    await ctx.phrases.checkWords({
      userId: s.userId,
      ip: client.ip,
      phrase: pending.phrase.words,
      positions: pending.phrase.positions,
      words: input.phraseWords ?? [],
    });
  }
  const step = await limited(
    ctx,
    s,
    client,
    async () => matchTotpStep(pending.secret, input.code),
    MSG.invalidCode,
  );
  await withTransaction(ctx.pool, async (tx) => {
    const codeHashes = pending.backupCodes.map((c) => backupHash(ctx, s.userId, c));
    const setup = { sessionId: s.sessionId, secretEncrypted: pending.secretEncrypted };
    if (!(await repo.enable(tx, s.userId, setup, codeHashes, step)))
      throw new AppError('CONFLICT', NO_PENDING_SETUP);
    if (pending.phrase) await ctx.phrases.adopt(tx, s.userId, pending.phrase.words, client);
    // A new authenticator ends every other session: one that was signed in with only the
    // password (an attacker's, say) must not carry on under the new factor.
    await endSessions(tx, s.userId, s.sessionId);
    await ctx.securityLog.record(tx, { userId: s.userId, kind: 'two-factor-enabled', client });
    await ctx.outbox.mail(tx, factorMail(ctx, s.email, true, client));
  });
  await ctx.outbox.deliver();
  return ctx.sessions.rotateAfterTwoFactor(s.sessionId);
}
