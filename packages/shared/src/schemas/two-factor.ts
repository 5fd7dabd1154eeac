import { z } from 'zod';
import { MSG } from '../messages';
import { ZBackupCode, ZTotpCode } from '../validation/codes';

export const ZTwoFactorSetupResponse = z.object({
  /** The otpauth:// URI; the browser draws it as a QR code itself. */
  otpauthUrl: z.string(),
  secret: z.string(),
  backupCodes: z.array(z.string()),
  /** Present only when this setup created the user's recovery phrase. */
  seedPhrase: z.string().nullable(),
});
export type TTwoFactorSetupResponse = z.infer<typeof ZTwoFactorSetupResponse>;

export const ZTwoFactorCodeRequest = z.object({ code: ZTotpCode });
export type TTwoFactorCodeRequest = z.infer<typeof ZTwoFactorCodeRequest>;

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
