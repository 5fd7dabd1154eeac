import { MSG, passwordUserInputs, passwordWeakness, ZNewPassword } from '@coffer/shared';

/** The check behind newPasswordProblem (new-password.ts), in its own chunk. */
export async function checkNewPassword(password: string, email?: string): Promise<string | null> {
  const shape = ZNewPassword.safeParse(password);
  if (!shape.success) return shape.error.issues[0]?.message ?? MSG.passwordRule;
  try {
    return await passwordWeakness(password, email ? passwordUserInputs(email) : []);
  } catch (err) {
    console.error('The password check could not load; the server checks it', err);
    return null;
  }
}
