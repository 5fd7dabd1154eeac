import { describe, expect, it } from 'vitest';
import { ZNewPassword, ZPassword } from './password';

/** The message a new password is refused with, or null when it is accepted. */
function refusal(password: string): string | null {
  const result = ZNewPassword.safeParse(password);
  return result.success ? null : (result.error.issues[0]?.message ?? '');
}

const RULE =
  'Password must contain at least one lowercase letter, one uppercase letter, and one number.';
const TOO_SHORT = 'Password must be at least 6 characters long.';

describe('new password rule (customer.md §5)', () => {
  it('accepts a password with a lowercase letter, an uppercase letter and a digit', () => {
    expect(refusal('Abcde1')).toBeNull();
    expect(refusal('Coffer-Test-1')).toBeNull();
  });

  it('refuses fewer than 6 characters with the length message', () => {
    expect(refusal('')).toBe(TOO_SHORT);
    expect(refusal('Ab1de')).toBe(TOO_SHORT);
  });

  it.each([
    ['no uppercase letter', 'abcdef1'],
    ['no lowercase letter', 'ABCDEF1'],
    ['no digit', 'Abcdefg'],
    ['only digits', '1234567'],
  ])('refuses a password with %s with the rule message, word for word', (_why, password) => {
    expect(refusal(password)).toBe(RULE);
  });

  it('refuses a password too long to be worth hashing', () => {
    expect(refusal(`Aa1${'x'.repeat(254)}`)).toBe('Password must be at most 256 characters long.');
  });
});

describe('existing password', () => {
  it('is only required to be present: its strength was checked when it was set', () => {
    expect(ZPassword.safeParse('weak').success).toBe(true);
    expect(ZPassword.safeParse('').error?.issues[0]?.message).toBe(
      'Please enter your account password to continue.',
    );
  });
});
