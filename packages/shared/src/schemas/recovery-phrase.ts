import { z } from 'zod';
import { ZRecoveryPhrase } from '../validation/recovery-phrase';

export const ZRecoveryPhraseResponse = z.object({
  /** The twelve words, or null when the user has none yet. */
  phrase: z.string().nullable(),
  createdAt: z.string().nullable(),
  /**
   * When the customer proved they wrote the phrase down; null while a replacement for a
   * burnt phrase (product.md S10) waits to be confirmed, or when there is no phrase.
   */
  confirmedAt: z.string().nullable(),
});
export type TRecoveryPhraseResponse = z.infer<typeof ZRecoveryPhraseResponse>;

export const ZGeneratePhraseResponse = z.object({
  phrase: z.string(),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  /** False when a phrase already existed; the existing one is returned unchanged. */
  created: z.boolean(),
});
export type TGeneratePhraseResponse = z.infer<typeof ZGeneratePhraseResponse>;

/**
 * POST /api/recovery-phrase/confirm: the whole phrase, typed back from where the customer
 * wrote it down. All twelve words, because recovery takes all twelve: a copy with one word
 * wrong or missing would pass a spot check of a few words and still be useless.
 */
export const ZConfirmPhraseRequest = z.object({ phrase: ZRecoveryPhrase });
export type TConfirmPhraseRequest = z.infer<typeof ZConfirmPhraseRequest>;

export const ZConfirmPhraseResponse = z.object({ confirmedAt: z.string() });
export type TConfirmPhraseResponse = z.infer<typeof ZConfirmPhraseResponse>;

/** What the server says when a confirmation fails; the browser shows the same words. */
export const PHRASE_CONFIRM_MSG = {
  mismatch:
    'Those words do not match your recovery phrase. Check each word and its order against what you wrote down, then try again.',
  noPhrase: 'You have no recovery phrase yet. Create one first.',
} as const;

/** What the recovery-phrase routes tell a staff session, and what the web shows staff. */
export const RECOVERY_PHRASE_MSG = {
  staff:
    'Staff accounts have no recovery phrase. If you lose your second factor, another admin resets it from the Staff list.',
} as const;
