import type { TAsset } from '../assets';
import { compareAmounts, formatAmount, parseAmount } from '../money';

/**
 * How amounts read on every screen, the customer's and staff's alike: one policy per asset
 * (its catalogue `displayDecimals`: BTC 8, ETH 6, USDT 2) and two decimals for dollars.
 * Nothing here does arithmetic on floats: values stay exact until they become text.
 */

const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/** Dollars (and the other fiat amounts) are shown to the cent. */
export const FIAT_DISPLAY_DECIMALS = 2;

/**
 * A decimal string rounded half-up (away from zero) to `places`, with en-US grouping:
 * ('1234.565', 2) is '1,234.57'. Null when the value is not a decimal number.
 */
export function formatRounded(value: string, places: number, grouping = true): string | null {
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
  const rounded = formatRounded(value, FIAT_DISPLAY_DECIMALS);
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
  const rounded = formatRounded(pct, 2);
  if (rounded === null) return '—';
  return rounded.startsWith('-') ? `${rounded}%` : `+${rounded}%`;
}

/** 'up' for a change of 0 or more, 'down' below 0, null when unknown. */
export function changeDirection(pct: string | null | undefined): 'up' | 'down' | null {
  if (pct == null || !DECIMAL.test(pct.trim())) return null;
  return compareAmounts(pct.trim(), '0') >= 0 ? 'up' : 'down';
}

/** A wire amount in the asset's minor units; null if it is not a plain non-negative decimal. */
export function toMinorOrNull(amount: string, decimals: number): bigint | null {
  try {
    return parseAmount(amount, decimals);
  } catch {
    return null;
  }
}

export type TAssetAmountOptions = {
  /**
   * Every unit the asset has, never cut (at least its display decimals): for amounts staff
   * compare digit for digit with a chain or a signed transaction, and for fees smaller than
   * the display decimals can show (0.002 USDT).
   */
  exact?: boolean;
  /** Follow the number with the asset's symbol (default true). */
  symbol?: boolean;
};

/**
 * An amount of an asset as every screen shows it: '1.375982 ETH', '0.50000000 BTC',
 * '100.00 USDT'. A wire amount (decimal string) or minor units; its display decimals, cut
 * toward zero so it never reads as more than there is; grouped in thousands. A wire amount
 * that is not a plain decimal is shown as it came.
 */
export function formatAssetAmount(
  asset: Pick<TAsset, 'decimals' | 'displayDecimals' | 'symbol'>,
  amount: string | bigint,
  options: TAssetAmountOptions = {},
): string {
  const minor = typeof amount === 'bigint' ? amount : toMinorOrNull(amount, asset.decimals);
  const number =
    minor === null
      ? String(amount)
      : formatAmount(minor, asset.decimals, {
          minFractionDigits: asset.displayDecimals,
          maxFractionDigits: options.exact ? asset.decimals : asset.displayDecimals,
          grouping: true,
        });
  return options.symbol === false ? number : `${number} ${asset.symbol}`;
}
