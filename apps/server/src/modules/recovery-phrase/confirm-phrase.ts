import { PHRASE_CONFIRM_MSG } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import { LIMITS } from '../rate-limit';
import { seedPhrasesRepository as repo } from './recovery-phrase.repository';
import { hashOf, type RecoveryPhraseContext } from './recovery-phrase-context';

/**
 * The customer proves they wrote the phrase down by typing all of it back. Counted on
 * the same limit as every other phrase check before it is compared, so this is no
 * cheaper way to guess; a right answer is released. Confirming sets `confirmed_at`,
 * which is what lets a security hold end (product.md S10). The words are never logged.
 */
export async function confirmPhrase(
  ctx: RecoveryPhraseContext,
  userId: string,
  candidate: string,
  from: Client,
): Promise<Date> {
  const row = await repo.findByUser(ctx.pool, userId);
  // Not a guess: there is nothing to compare with, so nothing is counted.
  if (!row) throw new AppError('CONFLICT', PHRASE_CONFIRM_MSG.noPhrase);
  const attempt = await ctx.limiter.consume(LIMITS.phrase(userId, from.ip));
  const hash = hashOf(ctx, candidate);
  if (row.phrase_hash !== hash) {
    throw new AppError('INVALID_RECOVERY_PHRASE', PHRASE_CONFIRM_MSG.mismatch);
  }
  await attempt.release();
  return withTransaction(ctx.pool, async (client) => {
    const done = await repo.confirm(client, userId, hash);
    // Burnt and replaced between the look-up and now: the words typed are no longer it.
    if (!done) throw new AppError('INVALID_RECOVERY_PHRASE', PHRASE_CONFIRM_MSG.mismatch);
    // Only the first confirmation is news; a repeat changes nothing and logs nothing.
    if (done.first) {
      await ctx.securityLog.record(client, { userId, kind: 'phrase-confirmed', client: from });
    }
    return done.confirmedAt;
  });
}
