import { describe, expect, it } from 'vitest';
import { ageText } from './age';

const NOW = new Date('2025-03-10T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MIN = 60_000;

describe('ageText', () => {
  it('reads minutes, hours and days, each rounded down', () => {
    expect(ageText(ago(30_000), NOW)).toBe('< 1 min');
    expect(ageText(ago(12 * MIN + 59_000), NOW)).toBe('12 min');
    expect(ageText(ago(59 * MIN), NOW)).toBe('59 min');
    expect(ageText(ago(60 * MIN), NOW)).toBe('1 h');
    expect(ageText(ago(3 * 60 * MIN + 40 * MIN), NOW)).toBe('3 h');
    expect(ageText(ago(23 * 60 * MIN + 59 * MIN), NOW)).toBe('23 h');
    expect(ageText(ago(24 * 60 * MIN), NOW)).toBe('1 d');
    expect(ageText(ago(2 * 24 * 60 * MIN + 23 * 60 * MIN), NOW)).toBe('2 d');
  });

  it('reads a date in the future or an unreadable one as just arrived', () => {
    expect(ageText(ago(-5 * MIN), NOW)).toBe('< 1 min');
    expect(ageText('not a date', NOW)).toBe('< 1 min');
  });
});
