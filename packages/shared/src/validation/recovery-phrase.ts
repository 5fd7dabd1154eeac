import { z } from 'zod';
import { MSG } from '../messages';

export const RECOVERY_PHRASE_WORDS = 12;

/** Trim, lower-case and collapse whitespace, as the reset form does before sending. */
export function normalizePhrase(input: string): string {
  return input.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');
}

export function countWords(phrase: string): number {
  const normalized = normalizePhrase(phrase);
  return normalized === '' ? 0 : normalized.split(' ').length;
}

/** A phrase typed by a customer: normalized, then exactly twelve words. */
export const ZRecoveryPhrase = z
  .string()
  .max(1000, MSG.phraseTwelveWords)
  .transform(normalizePhrase)
  .refine((p) => countWords(p) === RECOVERY_PHRASE_WORDS, MSG.phraseTwelveWords);
