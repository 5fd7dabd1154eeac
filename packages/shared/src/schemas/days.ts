import { z } from 'zod';

/**
 * Calendar days as the admin screens filter by them: YYYY-MM-DD, read as UTC days (a
 * filter "to 2025-03-01" takes the whole of that day in UTC, whatever the viewer's zone).
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A calendar day that exists: Date.parse rolls 2024-02-30 over to March, and PostgreSQL
 * refuses it (and year 0) outright, so the day must read back as itself.
 */
function isRealDay(v: string): boolean {
  const at = Date.parse(`${v}T00:00:00Z`);
  return v >= '0001-01-01' && !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === v;
}

export const ZDay = z
  .string()
  .regex(DAY, 'Dates are written YYYY-MM-DD.')
  .refine(isRealDay, 'That date does not exist.');

/** A day, or '' for "no bound". */
export const ZOptionalDay = z
  .union([z.literal(''), ZDay])
  .optional()
  .default('');

export const DAY_RANGE_BACKWARDS = 'The "From" day must be on or before the "To" day.';

/** Whether a from/to pair is in order (an open end always is). */
export function dayRangeInOrder(range: { from: string; to: string }): boolean {
  return range.from === '' || range.to === '' || range.from <= range.to;
}

/**
 * The UTC instants a day range covers: from the start of `from` up to (not including) the
 * start of the day after `to`. Null where the range is open.
 */
export function dayRangeBounds(range: { from: string; to: string }): {
  start: Date | null;
  end: Date | null;
} {
  const start = range.from === '' ? null : new Date(`${range.from}T00:00:00.000Z`);
  let end: Date | null = null;
  // The last day there is has no day after it to end before: nothing lies beyond it.
  if (range.to !== '' && range.to !== '9999-12-31') {
    end = new Date(`${range.to}T00:00:00.000Z`);
    end.setUTCDate(end.getUTCDate() + 1);
  }
  return { start, end };
}
