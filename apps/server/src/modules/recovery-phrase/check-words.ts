import { randomInt } from 'node:crypto';
import {
  normalizePhrase,
  PHRASE_CHECK_MSG,
  PHRASE_CHECK_WORDS,
  RECOVERY_PHRASE_WORDS,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { LIMITS } from '../rate-limit';
import type { RecoveryPhraseContext } from './recovery-phrase-context';

/** Which words (positions 1 to 12, ascending) a customer types back: three, at random. */
export function pickCheckPositions(): number[] {
  const picked = new Set<number>();
  while (picked.size < PHRASE_CHECK_WORDS) picked.add(randomInt(RECOVERY_PHRASE_WORDS) + 1);
  return [...picked].sort((a, b) => a - b);
}

/**
 * The words typed back at `positions` of a phrase just shown (not yet stored), before
 * anything that relies on it being written down. Counted on the phrase-check limit
 * before they are compared, like every other phrase check; right ones are released.
 * Refusals name the wrong positions (a 400), never the words.
 */
export async function checkWords(
  ctx: RecoveryPhraseContext,
  input: { userId: string; ip: string; phrase: string; positions: number[]; words: string[] },
): Promise<void> {
  const { positions, words } = input;
  const blank = positions.filter((_, i) => !words[i]);
  // Not a guess: nothing to compare, so nothing is counted.
  if (words.length !== positions.length || blank.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      PHRASE_CHECK_MSG.missing(blank.length > 0 ? blank : positions),
    );
  }
  const attempt = await ctx.limiter.consume(LIMITS.phrase(input.userId, input.ip));
  const shown = normalizePhrase(input.phrase).split(' ');
  const wrong = positions.filter((p, i) => normalizePhrase(words[i] ?? '') !== shown[p - 1]);
  if (wrong.length > 0) {
    throw new AppError('INVALID_RECOVERY_PHRASE', PHRASE_CHECK_MSG.wrong(wrong));
  }
  await attempt.release();
}
