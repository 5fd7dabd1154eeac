import { describe, expect, it } from 'vitest';
import { formatAge, formatDate, formatDateTime, formatShortDate, formatTime } from './dates';

const UTC = { timeZone: 'UTC' };
// 28 November 2026, 16:53:56 UTC.
const AT = '2026-11-28T16:53:56.000Z';
/** The no-break space that keeps a time and its AM/PM together. */
const NBSP = '\u00a0';

describe('one date policy', () => {
  it('reads a date and time, a date, a short date and a time, en-US', () => {
    expect(formatDateTime(AT, UTC)).toBe(`Nov 28, 2026, 4:53${NBSP}PM`);
    expect(formatDate(AT, UTC)).toBe('Nov 28, 2026');
    expect(formatShortDate(AT, UTC)).toBe('Nov 28');
    expect(formatTime(AT, UTC)).toBe(`4:53${NBSP}PM`);
  });

  it('shows the moment in the zone asked for', () => {
    expect(formatDateTime(AT, { timeZone: 'Australia/Sydney' })).toBe(
      `Nov 29, 2026, 3:53${NBSP}AM`,
    );
    expect(formatDate('2026-11-28T23:30:00Z', { timeZone: 'America/New_York' })).toBe(
      'Nov 28, 2026',
    );
  });

  it('takes a Date, milliseconds or an ISO string alike', () => {
    const ms = Date.parse(AT);
    expect(formatDateTime(new Date(ms), UTC)).toBe(formatDateTime(AT, UTC));
    expect(formatDateTime(ms, UTC)).toBe(formatDateTime(AT, UTC));
  });

  it('reads a dash for what is not a date', () => {
    for (const bad of ['', 'yesterday', Number.NaN]) {
      expect(formatDateTime(bad)).toBe('—');
      expect(formatDate(bad)).toBe('—');
      expect(formatTime(bad)).toBe('—');
    }
  });
});

describe('formatAge', () => {
  const now = Date.parse(AT);
  it('says how long ago in the largest whole unit', () => {
    expect(formatAge(now - 20_000, now)).toBe('less than a minute');
    expect(formatAge(now - 60_000, now)).toBe('1 minute');
    expect(formatAge(now - 12 * 60_000, now)).toBe('12 minutes');
    expect(formatAge(now - 3 * 3_600_000 - 5 * 60_000, now)).toBe('3 hours');
    expect(formatAge(now - 2 * 86_400_000, now)).toBe('2 days');
  });

  it('reads a time in the future (a clock ahead) as just now', () => {
    expect(formatAge(now + 60_000, now)).toBe('less than a minute');
  });
});
