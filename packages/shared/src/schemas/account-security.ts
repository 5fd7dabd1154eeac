import { z } from 'zod';
import { ZNewPassword, ZPassword } from '../validation/password';
import { ZStepUp } from './step-up';

/** One signed-in device of the customer, as the Security section lists it. */
export const ZActiveSession = z.object({
  /** The session's row id: never its token. */
  id: z.string().uuid(),
  /** A short label from the browser's user agent, e.g. "Chrome on Windows". */
  device: z.string(),
  ip: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type TActiveSession = z.infer<typeof ZActiveSession>;

export const ZActiveSessionsResponse = z.object({ sessions: z.array(ZActiveSession) });
export type TActiveSessionsResponse = z.infer<typeof ZActiveSessionsResponse>;

export const ZSessionIdParams = z.object({
  id: z.string().uuid('This is not a session id.'),
});
export type TSessionIdParams = z.infer<typeof ZSessionIdParams>;

export const ZSignOutOthersResponse = z.object({ signedOut: z.number().int() });
export type TSignOutOthersResponse = z.infer<typeof ZSignOutOthersResponse>;

export const MSG_SECURITY = {
  currentPasswordIncorrect: 'Your current password is incorrect.',
  samePassword: 'Choose a new password that is different from your current one.',
  passwordChanged: 'Your password was changed. Every other device was signed out.',
} as const;

/**
 * Changing the password: the current one, the new one (the sign-up rule; its guessability
 * is checked with `passwordWeakness` after this), and a fresh second factor (step-up) when
 * 2FA is on.
 */
export const ZChangePasswordRequest = z
  .object({
    currentPassword: ZPassword,
    newPassword: ZNewPassword,
    stepUp: ZStepUp.optional(),
  })
  .refine((b) => b.newPassword !== b.currentPassword, {
    message: MSG_SECURITY.samePassword,
    path: ['newPassword'],
  });
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;
