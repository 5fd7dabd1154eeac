import { z } from 'zod';
import { MSG } from '../messages';
import { ZBackupCode, ZTotpCode } from '../validation/codes';

export const ZTwoFactorSetupResponse = z.object({
  /** The otpauth:// URI; the browser draws it as a QR code itself. */
  otpauthUrl: z.string(),
  secret: z.string(),
  backupCodes: z.array(z.string()),
  /**
   * The recovery phrase this setup stores once it is confirmed, shown again on every call
   * until then; null for staff (who never use one) and for an account that has one already.
   */
  seedPhrase: z.string().nullable(),
  /** The positions (1 to 12, ascending) of the phrase's words to type back; null without a phrase. */
  phraseCheck: z.array(z.number().int()).nullable(),
});
export type TTwoFactorSetupResponse = z.infer<typeof ZTwoFactorSetupResponse>;

export const ZTwoFactorCodeRequest = z.object({ code: ZTotpCode });
export type TTwoFactorCodeRequest = z.infer<typeof ZTwoFactorCodeRequest>;

/** How many words of the new recovery phrase are typed back before 2FA is turned on. */
export const PHRASE_CHECK_WORDS = 3;

/**
 * POST /api/2fa/enable: the code from the authenticator and, when the setup shows a new
 * recovery phrase, its words at the positions of `phraseCheck`, in that order.
 */
export const ZTwoFactorEnableRequest = ZTwoFactorCodeRequest.extend({
  phraseWords: z.array(z.string().trim().toLowerCase().max(50)).max(PHRASE_CHECK_WORDS).optional(),
});
export type TTwoFactorEnableRequest = z.infer<typeof ZTwoFactorEnableRequest>;

/** "3", "3 and 7", "3, 7 and 11". */
function positionList(positions: number[]): string {
  const head = positions.slice(0, -1);
  const last = String(positions.at(-1) ?? '');
  return head.length > 0 ? `${head.join(', ')} and ${last}` : last;
}

/** What the server says about the words typed back; the browser shows the same words. */
export const PHRASE_CHECK_MSG = {
  missing: (positions: number[]) =>
    `Type word${positions.length === 1 ? '' : 's'} ${positionList(positions)} of your recovery phrase.`,
  wrong: (positions: number[]) =>
    positions.length === 1
      ? `Word ${positionList(positions)} does not match your recovery phrase. Check it against what you wrote down.`
      : `Words ${positionList(positions)} do not match your recovery phrase. Check them against what you wrote down.`,
} as const;

/** Sign-in verification: an authenticator code or a backup code. */
export const ZTwoFactorVerifyRequest = z.union([
  z.object({ code: ZTotpCode }),
  z.object({ backupCode: ZBackupCode }),
]);
export type TTwoFactorVerifyRequest = z.infer<typeof ZTwoFactorVerifyRequest>;

export const ZTwoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  backupCodesLeft: z.number().int(),
});
export type TTwoFactorStatusResponse = z.infer<typeof ZTwoFactorStatusResponse>;

export const ZTwoFactorResetRequest = z.object({
  seedPhrase: z.string().trim().min(1, MSG.enterRecoveryPhrase).max(1000),
});
