import { describe, expect, it } from 'vitest';
import { cleanBackupCodeInput, cleanTotpInput, ZBackupCode, ZTotpCode } from './codes';

describe('authenticator code input', () => {
  it('keeps digits only and stops at six', () => {
    expect(cleanTotpInput('12 34-56')).toBe('123456');
    expect(cleanTotpInput('1234567890')).toBe('123456');
    expect(cleanTotpInput('a1b2c3')).toBe('123');
    expect(cleanTotpInput('code')).toBe('');
  });

  it('must be exactly six digits, else the spec message', () => {
    expect(ZTotpCode.safeParse('012345').success).toBe(true);
    for (const bad of ['12345', '1234567', '12345a', '']) {
      expect(ZTotpCode.safeParse(bad).error?.issues[0]?.message).toBe(
        'Please enter a valid 6-digit code',
      );
    }
  });
});

describe('backup code input', () => {
  it('upper-cases, drops separators and stops at eight characters', () => {
    expect(cleanBackupCodeInput('abcd-2345')).toBe('ABCD2345');
    expect(cleanBackupCodeInput(' ab cd 23 45 67 ')).toBe('ABCD2345');
    expect(cleanBackupCodeInput('ABCD2345')).toBe('ABCD2345');
  });

  it('is accepted as typed when it cleans to eight characters', () => {
    expect(ZBackupCode.parse('abcd-2345')).toBe('ABCD2345');
    expect(ZBackupCode.safeParse('abc-234').error?.issues[0]?.message).toBe(
      'Please enter an 8-character backup code',
    );
  });
});
