import { compareAmounts, formatAmount, parseAmount, type TAsset } from '@coffer/shared';

/**
 * Display formatting for the decimal strings the money endpoints send. Nothing here does
 * arithmetic on floats: values stay exact until they become text.
 */

const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/**
 * A decimal string rounded half-up (away from zero) to `places`, with en-US grouping:
 * ('1234.565', 2) is '1,234.57'. Null when the value is not a decimal number.
 */
export function roundDecimal(value: string, places: number, grouping = true): string | null {
  const match = DECIMAL.exec(value.trim());
  if (!match) return null;
  const sign = match[1] ?? '';
  const fraction = match[3] ?? '';
  const digits = BigInt(`${match[2] ?? '0'}${fraction}`);
  let scaled: bigint;
  if (fraction.length <= places) {
    scaled = digits * 10n ** BigInt(places - fraction.length);
  } else {
    const divisor = 10n ** BigInt(fraction.length - places);
    scaled = digits / divisor;
    if ((digits % divisor) * 2n >= divisor) scaled += 1n;
  }
  const text = formatAmount(scaled, places, { minFractionDigits: places, grouping });
  return scaled === 0n ? text : `${sign}${text}`;
}

/** '$1,234.57'; '—' when there is no value. */
export function formatUsd(value: string | null | undefined): string {
  if (value == null) return '—';
  const rounded = roundDecimal(value, 2);
  if (rounded === null) return '—';
  return rounded.startsWith('-') ? `-$${rounded.slice(1)}` : `$${rounded}`;
}

/** 'A$1,234.57'. */
export function formatAud(value: string | null | undefined): string {
  const usd = formatUsd(value);
  return usd === '—' ? usd : usd.replace('$', 'A$');
}

/** A 24 h change: '+1.73%', '-0.40%', or '—' when it is not known (product.md M3). */
export function formatChange(pct: string | null | undefined): string {
  if (pct == null) return '—';
  const rounded = roundDecimal(pct, 2);
  if (rounded === null) return '—';
  return rounded.startsWith('-') ? `${rounded}%` : `+${rounded}%`;
}

/** 'up' for a change of 0 or more (shown green), 'down' below 0 (red), null when unknown. */
export function changeDirection(pct: string | null | undefined): 'up' | 'down' | null {
  if (pct == null || !DECIMAL.test(pct.trim())) return null;
  return compareAmounts(pct.trim(), '0') >= 0 ? 'up' : 'down';
}

/** Text colour for a change, from the theme tokens. */
export function changeClass(pct: string | null | undefined): string {
  const direction = changeDirection(pct);
  return direction === 'up' ? 'text-success' : direction === 'down' ? 'text-danger' : 'text-muted';
}

/** A wire amount in the asset's minor units; null if it is not a plain non-negative decimal. */
export function toMinorOrNull(amount: string, decimals: number): bigint | null {
  try {
    return parseAmount(amount, decimals);
  } catch {
    return null;
  }
}

/**
 * A crypto amount with exactly `digits` decimals, cut toward zero so a balance never reads
 * as more than there is: ('0.123456789', 18, 6) is '0.123456'.
 */
export function formatCrypto(amount: string, decimals: number, digits: number): string {
  const minor = toMinorOrNull(amount, decimals);
  if (minor === null) return amount;
  return formatMinor(minor, decimals, digits);
}

/** Minor units with exactly `digits` decimals (cut toward zero), grouped. */
export function formatMinor(minor: bigint, decimals: number, digits: number): string {
  return formatAmount(minor, decimals, {
    minFractionDigits: digits,
    maxFractionDigits: digits,
    grouping: true,
  });
}

/** Decimals a balance is listed with: ETH 6, BTC 8, USDT 2. */
export function listDigits(asset: Pick<TAsset, 'id' | 'decimals'>): number {
  if (asset.id === 'ETH') return 6;
  if (asset.id === 'BTC') return 8;
  return Math.min(2, asset.decimals);
}
