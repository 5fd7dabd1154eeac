import { z } from 'zod';

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

/** POST /api/admin/users/:id/unfreeze: staff lift a freeze after review, saying why. */
export const ZUnfreezeRequest = z.object({
  reason: z
    .string({ error: 'Say how the account was reviewed.' })
    .trim()
    .min(1, 'Say how the account was reviewed.')
    .max(500, 'Keep the reason under 500 characters'),
});
