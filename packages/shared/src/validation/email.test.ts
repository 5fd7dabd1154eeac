import { describe, expect, it } from 'vitest';
import { ZEmail } from './email';

describe('e-mail field', () => {
  it('is trimmed and lower-cased, so one address has one spelling', () => {
    expect(ZEmail.parse('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
  });

  it('refuses what is not an address', () => {
    for (const bad of ['', 'ann', 'ann@', '@example.com', 'ann lee@example.com']) {
      expect(ZEmail.safeParse(bad).error?.issues[0]?.message).toBe(
        'Please enter a valid email address.',
      );
    }
  });
});
