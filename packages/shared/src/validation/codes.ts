import { z } from 'zod';
import { MSG } from '../messages';

export const TOTP_DIGITS = 6;
export const BACKUP_CODE_LENGTH = 8;
export const BACKUP_CODE_COUNT = 10;

/** Keeps digits only and caps at six, as the code inputs do while typing. */
export function cleanTotpInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, TOTP_DIGITS);
}

/** Upper-cases and caps a backup code at eight characters. */
export function cleanBackupCodeInput(value: string): string {
  return value
    .replace(/[^a-zA-Z0-9]/g, '')
    .toUpperCase()
    .slice(0, BACKUP_CODE_LENGTH);
}

export const ZTotpCode = z.string().regex(/^\d{6}$/, MSG.sixDigitCode);
export const ZBackupCode = z
  .string()
  .transform(cleanBackupCodeInput)
  .refine((c) => c.length === BACKUP_CODE_LENGTH, 'Please enter an 8-character backup code');
