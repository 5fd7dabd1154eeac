import { z } from 'zod';
import { ZPasskeyAssertion, ZPasskeyRenameRequest } from './passkeys';

export const STEP_UP_MSG = {
  required:
    'Enter the 6-digit code from your authenticator app or one of your backup codes, or use a passkey.',
  invalid:
    'Invalid code. Enter a current code from your authenticator app or an unused backup code.',
  noFactor:
    'Turn on two-factor authentication first: withdrawals, bank payouts and bank details are confirmed with a fresh code each time.',
} as const;

/**
 * A fresh second factor given with a request that moves money or changes a factor (issue
 * 12's step-up): an authenticator code or a backup code in one field, or a passkey's answer
 * to a challenge the session asked for. It is used up by that request only.
 */
export const ZStepUp = z.union(
  [
    z.object({ code: z.string().trim().min(1, STEP_UP_MSG.required).max(32, STEP_UP_MSG.invalid) }),
    z.object({ assertion: ZPasskeyAssertion }),
  ],
  { error: STEP_UP_MSG.required },
);
export type TStepUp = z.infer<typeof ZStepUp>;

/** A request body without its step-up: what an idempotency key stands for. */
export function withoutStepUp<T extends { stepUp?: unknown }>(body: T): Omit<T, 'stepUp'> {
  const { stepUp: _proof, ...rest } = body;
  return rest;
}

/**
 * A passkey's new name, confirmed like its removal: the names are how the owner tells their
 * passkeys apart in mails and the security log.
 */
export const ZPasskeyRenameWithStepUp = ZPasskeyRenameRequest.extend({ stepUp: ZStepUp });
export type TPasskeyRenameWithStepUp = z.infer<typeof ZPasskeyRenameWithStepUp>;
