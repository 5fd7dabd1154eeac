import { z } from 'zod';
import { MSG } from '../messages';
import { ZEmail } from '../validation/email';
import { ZNewPassword, ZPassword } from '../validation/password';
import { ZRecoveryPhrase } from '../validation/recovery-phrase';
import { ZStaffRole } from './staff';

export const ZSignUpRequest = z.object({ email: ZEmail, password: ZNewPassword });
export type TSignUpRequest = z.infer<typeof ZSignUpRequest>;

export const ZSignInRequest = z.object({
  email: z.string().trim().toLowerCase().min(1, MSG.emailAndPasswordRequired).max(254),
  password: z.string().min(1, MSG.emailAndPasswordRequired).max(256),
});
export type TSignInRequest = z.infer<typeof ZSignInRequest>;

export const ZVerifyEmailRequest = z.object({ token: z.string().min(1).max(200) });
export const ZResendVerificationRequest = z.object({ email: ZEmail });

export const ZResetPasswordRequest = z.object({
  recoveryPhrase: ZRecoveryPhrase,
  newPassword: ZNewPassword,
});
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

export const ZVerifyPasswordRequest = z.object({ password: ZPassword });

/** What the browser knows about the signed-in user; mirrors the server's gate. */
export const ZSession = z.object({
  user: z.object({
    id: z.string().uuid(),
    email: z.string(),
    isAdmin: z.boolean(),
    /** A staff member's roles (docs/roles.md); empty for a customer. */
    staffRoles: z.array(ZStaffRole),
    registeredAt: z.string(),
  }),
  twoFactor: z.object({
    required: z.boolean(),
    enabled: z.boolean(),
    /** True when this session has passed the second factor (or none is needed). */
    verified: z.boolean(),
  }),
  hasRecoveryPhrase: z.boolean(),
  /**
   * True while this is the account's first session (no earlier sign-in in its history): the
   * dashboard then greets "Welcome", and "Welcome back" ever after.
   */
  firstSignIn: z.boolean(),
  /**
   * When the session ends unless it is used (idle; never later than the absolute end) and
   * when it ends regardless. `secondsLeft` is the idle deadline counted by the server, for
   * timers that must not depend on the browser's clock (docs/decisions/0013).
   */
  expiry: z.object({
    idleMinutes: z.number().int(),
    idleExpiresAt: z.string(),
    absoluteExpiresAt: z.string(),
    secondsLeft: z.number().int(),
  }),
});
export type TSession = z.infer<typeof ZSession>;

export const ZSessionResponse = z.object({ session: ZSession.nullable() });
export type TSessionResponse = z.infer<typeof ZSessionResponse>;
