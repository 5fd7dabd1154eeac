import { PASSWORD_MIN_LENGTH } from '@coffer/shared';

/** The rules under a new-password field, as the server applies them (product.md S9). */
export const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, with a lowercase letter, an uppercase letter and a number, and not a common or easily guessed password (nor your e-mail address).`;

/**
 * Why the server would refuse this new password, or null: the shape first (with the spec's
 * messages), then the same guessability check the server runs. The check and its
 * dictionaries load on first use, in chunks of their own: the forms that show this field
 * share chunks with the public pages, which must not carry them. If they cannot be
 * fetched, the server's check still stands and its message is shown instead.
 */
export async function newPasswordProblem(password: string, email?: string): Promise<string | null> {
  const { checkNewPassword } = await import('./new-password-check');
  return checkNewPassword(password, email);
}
