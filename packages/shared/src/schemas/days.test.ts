import { describe, expect, it } from 'vitest';
import { dayRangeBounds, dayRangeInOrder, ZOptionalDay } from './days';

describe('day ranges', () => {
  it('reads days as whole UTC days, both ends included', () => {
    expect(dayRangeBounds({ from: '2025-03-02', to: '2025-03-02' })).toEqual({
      start: new Date('2025-03-02T00:00:00.000Z'),
      end: new Date('2025-03-03T00:00:00.000Z'),
    });
    expect(dayRangeBounds({ from: '', to: '2024-12-31' })).toEqual({
      start: null,
      end: new Date('2025-01-01T00:00:00.000Z'),
    });
    expect(dayRangeBounds({ from: '0001-01-01', to: '9999-12-31' })).toEqual({
      start: new Date('0001-01-01T00:00:00.000Z'),
      end: null,
    });
  });

  it('takes a range in order or open at either end, never backwards', () => {
    expect(dayRangeInOrder({ from: '2025-03-02', to: '2025-03-02' })).toBe(true);
    expect(dayRangeInOrder({ from: '2025-03-02', to: '' })).toBe(true);
    expect(dayRangeInOrder({ from: '2025-03-03', to: '2025-03-02' })).toBe(false);
  });

  it('refuses days that do not exist or are written otherwise', () => {
    expect(ZOptionalDay.safeParse('2024-02-29').success).toBe(true);
    expect(ZOptionalDay.safeParse('2025-02-29').error?.issues[0]?.message).toBe(
      'That date does not exist.',
    );
    expect(ZOptionalDay.safeParse('29/02/2024').error?.issues[0]?.message).toBe(
      'Dates are written YYYY-MM-DD.',
    );
    expect(ZOptionalDay.parse(undefined)).toBe('');
  });
});
