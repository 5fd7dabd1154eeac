import {
  MSG,
  PASSWORD_MIN_LENGTH,
  passwordUserInputs,
  passwordWeakness,
  ZNewPassword,
} from '@coffer/shared';

/** The rules under a new-password field, as the server applies them (DEVIATIONS S9). */
export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, with a lowercase letter, an uppercase letter and a number, and not a common or easily guessed password (nor your e-mail address).`;

/**
 * Why the server would refuse this new password, or null: the shape first (with the spec's
 * messages), then the same guessability check the server runs. Its dictionaries load on
 * first use; if they cannot be fetched, the server's check still stands and its message is
 * shown instead.
 */
export async function newPasswordProblem(password: string, email?: string): Promise<string | null> {
  const shape = ZNewPassword.safeParse(password);
  if (!shape.success) return shape.error.issues[0]?.message ?? MSG.passwordRule;
  try {
    return await passwordWeakness(password, email ? passwordUserInputs(email) : []);
  } catch (err) {
    console.error('The password check could not load; the server checks it', err);
    return null;
  }
}
