import { describe, expect, it } from 'vitest';
import {
  PASSWORD_MIN_LENGTH,
  passwordUserInputs,
  passwordWeakness,
  ZNewPassword,
  ZPassword,
} from './password';

/** The message a new password is refused with, or null when it is accepted. */
function refusal(password: string): string | null {
  const result = ZNewPassword.safeParse(password);
  return result.success ? null : (result.error.issues[0]?.message ?? '');
}

const RULE =
  'Password must contain at least one lowercase letter, one uppercase letter, and one number.';
const TOO_SHORT = 'Password must be at least 8 characters long.';

describe('new password rule', () => {
  it('accepts a password with a lowercase letter, an uppercase letter and a digit', () => {
    expect(refusal('Abcdefg1')).toBeNull();
    expect(refusal('Coffer-Test-1')).toBeNull();
  });

  it('refuses fewer than 8 characters with the length message', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(refusal('')).toBe(TOO_SHORT);
    // The spec's 6 is no longer enough.
    expect(refusal('Abc123')).toBe(TOO_SHORT);
    expect(refusal('Abcde1x')).toBe(TOO_SHORT);
  });

  it.each([
    ['no uppercase letter', 'abcdefg1'],
    ['no lowercase letter', 'ABCDEFG1'],
    ['no digit', 'Abcdefgh'],
    ['only digits', '12345678'],
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

describe('guessable passwords (zxcvbn score 3 or more, product.md S9)', () => {
  it.each([
    ['Password1', 'This is a commonly used password.'],
    ['Qwerty123', 'This is a commonly used password.'],
    ['Abcdefg1', 'This is a commonly used password.'],
    ['P@ssw0rd1', 'This is similar to a commonly used password.'],
  ])('refuses %s and says why', async (password, warning) => {
    // Well-formed, so only the guessability check stands in the way.
    expect(refusal(password)).toBeNull();
    expect(await passwordWeakness(password)).toBe(
      `${warning} Add more words that are less common.`,
    );
  });

  it('refuses a password with no clear warning with a general reason and a suggestion', async () => {
    expect(await passwordWeakness('Summer2024')).toBe(
      'This password is too easy to guess. Add more words that are less common.',
    );
  });

  it('refuses a password made of the e-mail address, saying so', async () => {
    const inputs = passwordUserInputs('Jane.Doe@Example.com');
    expect(inputs).toEqual(['jane.doe@example.com', 'jane.doe', 'jane', 'doe']);
    for (const password of ['Jane.doe42', 'Jane.Doe@Example.com1']) {
      expect(refusal(password)).toBeNull();
      expect(await passwordWeakness(password, inputs)).toMatch(
        /^Passwords that contain your e-mail address or name are easy to guess\. /,
      );
    }
    // The same password is fine for somebody else.
    expect(
      await passwordWeakness('Jane.Doe@Example.com1', passwordUserInputs('ops@coffer.test')),
    ).toBeNull();
  });

  it.each(['Coffer-Test-1', 'Coffer-e2e-Pass1', 'Correct-Horse-9', 'Brand-New-Pass-7'])(
    'accepts %s, a password nobody would guess',
    async (password) => {
      expect(refusal(password)).toBeNull();
      expect(
        await passwordWeakness(password, passwordUserInputs('customer@example.com')),
      ).toBeNull();
    },
  );

  // How long the check takes is a benchmark's business, not a test's (machines are noisy):
  // this one proves the longest password allowed is scored at all.
  it('scores the longest password allowed', async () => {
    expect(
      await passwordWeakness(`Aa1-${'correct horse battery staple '.repeat(9)}`.slice(0, 256)),
    ).toBeNull();
  });
});
