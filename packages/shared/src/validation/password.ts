import { z } from 'zod';
import { MSG } from '../messages';

export const PASSWORD_MIN_LENGTH = 6;
/** Longer inputs are refused before hashing so nobody can make the server hash megabytes. */
export const PASSWORD_MAX_LENGTH = 256;

/** The server's password rule (customer.md §5): length, then character classes. */
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
