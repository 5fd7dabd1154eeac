import type { Client } from '@server/lib/client-of';
import type { AuthContext } from './auth-context';
import { resetPassword } from './reset-password';
import { checkPassword, signIn } from './sign-in';
import { resendVerification, signUp, verifyEmail } from './sign-up';

/**
 * Sign-up, sign-in and passwords composed: each use case is its own file taking the shared
 * context (`auth-context.ts`).
 */

export type { Client };

export function createAuthService(ctx: AuthContext) {
  return {
    signUp: (email: string, password: string, client: Client): Promise<void> =>
      signUp(ctx, email, password, client),

    verifyEmail: (token: string): Promise<void> => verifyEmail(ctx, token),

    resendVerification: (email: string, client: Client): Promise<void> =>
      resendVerification(ctx, email, client),

    signIn: (
      email: string,
      password: string,
      client: Client,
      deviceCookie?: string,
    ): Promise<string> => signIn(ctx, email, password, client, deviceCookie),

    checkPassword: (userId: string, password: string, client: Client): Promise<void> =>
      checkPassword(ctx, userId, password, client),

    resetPassword: (phrase: string, newPassword: string, client: Client): Promise<void> =>
      resetPassword(ctx, phrase, newPassword, client),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
