import { z } from 'zod';
import { ZNewPassword } from '../validation/password';
import { ZStepUp } from './step-up';

/** POST /api/security/freeze: the token of a "This wasn't me" link. */
export const ZFreezeRequest = z.object({
  token: z
    .string({ error: 'This link is not complete. Open it from the e-mail again.' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is not complete. Open it from the e-mail again.'),
});

/** GET /api/security/hold: the customer's own hold and freeze. */
export const ZSecurityHoldStatus = z.object({
  onHold: z.boolean(),
  holdUntil: z.string().nullable(),
  needsNewPhrase: z.boolean(),
  frozen: z.boolean(),
});
export type TSecurityHoldStatus = z.infer<typeof ZSecurityHoldStatus>;

export const UNFREEZE_REASON_MISSING = 'Say how the account was reviewed.';
export const UNFREEZE_REJECT_REASON_MISSING = 'Say why the account stays frozen.';

/**
 * POST /api/admin/users/:id/unfreeze: one admin asks to lift a freeze after review, saying
 * why, with a fresh second factor; another admin approves it (four eyes).
 */
export const ZUnfreezeRequest = z.object({
  reason: z
    .string({ error: UNFREEZE_REASON_MISSING })
    .trim()
    .min(1, UNFREEZE_REASON_MISSING)
    .max(500, 'Keep the reason under 500 characters'),
  stepUp: ZStepUp,
});
export type TUnfreezeRequest = z.infer<typeof ZUnfreezeRequest>;

/** POST /api/admin/users/:id/unfreeze/approve: a second admin's fresh second factor. */
export const ZUnfreezeApproval = z.object({ stepUp: ZStepUp });
export type TUnfreezeApproval = z.infer<typeof ZUnfreezeApproval>;

/** POST /api/admin/users/:id/unfreeze/reject: the account stays frozen, and why. */
export const ZUnfreezeRejection = z.object({
  reason: z
    .string({ error: UNFREEZE_REJECT_REASON_MISSING })
    .trim()
    .min(1, UNFREEZE_REJECT_REASON_MISSING)
    .max(500, 'Keep the reason under 500 characters'),
  stepUp: ZStepUp,
});
export type TUnfreezeRejection = z.infer<typeof ZUnfreezeRejection>;

/** A request to lift a freeze, waiting for a second admin. */
export const ZPendingUnfreeze = z.object({
  id: z.string(),
  requestedBy: z.object({ id: z.string().nullable(), email: z.string().nullable() }),
  requestedAt: z.string(),
  reason: z.string(),
});
export type TPendingUnfreeze = z.infer<typeof ZPendingUnfreeze>;

/** GET /api/admin/users/:id/unfreeze (and the answer of each step): where the review stands. */
export const ZUnfreezeState = z.object({
  frozen: z.boolean(),
  /** Unfrozen by staff, but the customer has not yet set a new password from the mailed link. */
  awaitingNewPassword: z.boolean(),
  pending: ZPendingUnfreeze.nullable(),
});
export type TUnfreezeState = z.infer<typeof ZUnfreezeState>;

const SET_PASSWORD_LINK_BROKEN = 'This link is not complete. Open it from the e-mail again.';

/** POST /api/security/set-password: the link mailed after a freeze is lifted, and the new password. */
export const ZSetPasswordRequest = z.object({
  token: z
    .string({ error: SET_PASSWORD_LINK_BROKEN })
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, SET_PASSWORD_LINK_BROKEN),
  newPassword: ZNewPassword,
});
export type TSetPasswordRequest = z.infer<typeof ZSetPasswordRequest>;

/**
 * What sign-in (and every other way in) answers for a frozen account, the same for a right
 * or a wrong password, so that a frozen account cannot be used to test passwords.
 */
export const FROZEN_MSG = {
  frozen:
    'This account is frozen for its safety: nobody can sign in until Coffer support has reviewed it with its owner. Please contact support.',
  awaitingNewPassword:
    'Coffer support has lifted the freeze on this account. Set a new password with the link we e-mailed you, then sign in. If the link did not arrive or has expired, contact support.',
  setPasswordLinkInvalid:
    'This link is no longer valid: it was used already or has expired. Contact support for a new one.',
} as const;
