import { z } from 'zod';

export const ZRecoveryPhraseResponse = z.object({
  /** The twelve words, or null when the user has none yet. */
  phrase: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type TRecoveryPhraseResponse = z.infer<typeof ZRecoveryPhraseResponse>;

export const ZGeneratePhraseResponse = z.object({
  phrase: z.string(),
  createdAt: z.string(),
  /** False when a phrase already existed; the existing one is returned unchanged. */
  created: z.boolean(),
});
export type TGeneratePhraseResponse = z.infer<typeof ZGeneratePhraseResponse>;
