import { parseAmount } from './money';

const SCALE = 18;

/**
 * The change from `before` to `after` in percent, as a decimal string with two places
 * (half away from zero), computed exactly; null when `before` is zero.
 */
export function percentChange(before: string, after: string): string | null {
  return percentChangeOf(parseAmount(before, SCALE), parseAmount(after, SCALE));
}

/** The same for two amounts already in one unit (both bigint at any one scale). */
export function percentChangeOf(a: bigint, b: bigint): string | null {
  if (a === 0n) return null;
  // In hundredths of a percent: (b − a) / a × 10 000.
  const num = (b - a) * 10_000n;
  let q = num / a;
  const r = num % a;
  if (2n * (r < 0n ? -r : r) >= a) q += num < 0n ? -1n : 1n;
  const negative = q < 0n;
  const abs = negative ? -q : q;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
