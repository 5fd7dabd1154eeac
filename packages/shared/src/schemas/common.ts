import { z } from 'zod';
import { ERROR_CODES } from '../errors';

export const ZErrorResponse = z.object({
  error: z.enum(ERROR_CODES),
  message: z.string(),
  /** Seconds until a rate-limited action may be tried again. */
  retryAfter: z.number().int().optional(),
  /** When the account's security hold ends (ISO time), on a SECURITY_HOLD refusal. */
  holdUntil: z.string().nullable().optional(),
});

export const ZOk = z.object({ ok: z.literal(true) });
export type TOk = z.infer<typeof ZOk>;
