import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { z } from 'zod';
import { MSG } from '../messages';

/** 8, not the spec's 6: 6 is below every current standard (product.md S9, ASVS 6.2.1). */
export const PASSWORD_MIN_LENGTH = 8;
/** Longer inputs are refused before hashing so nobody can make the server hash megabytes. */
export const PASSWORD_MAX_LENGTH = 256;
/** zxcvbn's 0–4 scale: 3 is "safely unguessable" against an online attack with throttling. */
export const PASSWORD_MIN_SCORE = 3;

/**
 * The shape of a new password: length, then character
 * classes. Whether it is guessable is `passwordWeakness`, which needs the e-mail and the
 * dictionaries and so runs after this.
 */
export const ZNewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, MSG.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`)
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p), MSG.passwordRule);

/** An existing password: anything non-empty; its strength was checked when it was set. */
export const ZPassword = z
  .string()
  .min(1, MSG.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, MSG.passwordIncorrect);

/**
 * What a password must not be built from: the e-mail, its local part and the pieces of the
 * local part ("jane.doe" gives "jane" and "doe"), so "Jane.doe2024" is refused for
 * jane.doe@example.com.
 */
export function passwordUserInputs(email: string): string[] {
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0] ?? '';
  const pieces = local.split(/[^a-z0-9]+/).filter((piece) => piece.length >= 3);
  return [...new Set([address, local, ...pieces].filter((s) => s.length > 0))];
}

let estimator: Promise<ZxcvbnFactory> | null = null;

/**
 * zxcvbn with its common-password and English dictionaries, loaded on first use: they are
 * about 1.5 MB, so the browser fetches them only when someone sets a password, and every
 * later check reuses them.
 */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ])
    .then(
      ([core, common, en]) =>
        new core.ZxcvbnFactory({
          dictionary: { ...common.dictionary, ...en.dictionary },
          graphs: common.adjacencyGraphs,
          translations: en.translations,
          // Levenshtein matching multiplies the time of a check by about 50 for little gain.
          useLevenshteinDistance: false,
          // Only the first 64 characters are scored: the time of a check grows quickly with
          // length (over a second for 256 repeated characters), and any 64 characters that
          // pass the rest of the rules are already far beyond guessing.
          maxLength: 64,
        }),
    )
    .catch((err: unknown) => {
      // A failed download (the browser offline) is tried again at the next check.
      estimator = null;
      throw err;
    });
  return estimator;
}

/**
 * Starts loading the dictionaries (a form calls it when the new-password field gets focus,
 * so the check is ready by the time the form is sent); a failure is retried by the check.
 */
export function preloadPasswordCheck(): void {
  loadEstimator().catch(() => {});
}

/** zxcvbn's own warning for a user input match is vague; this one says what to avoid. */
const PERSONAL_WARNING = 'Passwords that contain your e-mail address or name are easy to guess.';
const DEFAULT_WARNING = 'This password is too easy to guess.';
const DEFAULT_SUGGESTION = 'Add more words that are less common.';

/**
 * Why a new password is too easy to guess, or null when it is not (zxcvbn score ≥ 3). The
 * same check, with the same message, runs in the form and on the server; the server's is
 * the one that counts. Check the shape with `ZNewPassword` first.
 */
export async function passwordWeakness(
  password: string,
  userInputs: string[] = [],
): Promise<string | null> {
  const zxcvbn = await loadEstimator();
  const result = zxcvbn.check(password, userInputs);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  const personal = result.sequence.some(
    (match) => 'dictionaryName' in match && match.dictionaryName === 'userInputs',
  );
  const warning = personal ? PERSONAL_WARNING : (result.feedback.warning ?? DEFAULT_WARNING);
  const suggestion = result.feedback.suggestions[0] ?? DEFAULT_SUGGESTION;
  return `${warning} ${suggestion}`;
}
