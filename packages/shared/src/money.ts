import { z } from 'zod';
import { assetById, type TAnyAssetId, type TAsset } from './assets';

/**
 * Exact money arithmetic. Amounts are bigint minor units in code and decimal strings on the
 * wire; no amount ever becomes a JavaScript number, because a double cannot hold 0.1
 * exactly, nor an ETH balance in wei beyond 2^53.
 */

/**
 * Whole-number digits an amount may have. It bounds what a request can make us parse, and
 * leaves room for 18 fraction digits inside a numeric(38, 18) column.
 */
export const MAX_AMOUNT_INTEGER_DIGITS = 20;

/** Longer inputs are refused before any parsing work. */
const MAX_AMOUNT_INPUT_LENGTH = 100;

/** The most decimals any asset or price we handle uses; also guards 10n ** decimals. */
const MAX_DECIMALS = 36;

export type TAmountErrorCode =
  | 'REQUIRED'
  | 'INVALID'
  | 'NEGATIVE'
  | 'TOO_MANY_DECIMALS'
  | 'NOT_POSITIVE'
  | 'TOO_LARGE';

export type TAmountMessages = Readonly<Record<TAmountErrorCode, string>>;

/** A customer-typed amount that cannot be used; `message` is ready to show. */
export class AmountError extends Error {
  override readonly name = 'AmountError';

  constructor(
    readonly code: TAmountErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Default amount messages. Pass the asset's symbol so the decimals message names it
 * ('Amount can have at most 8 decimal places for BTC').
 */
export function amountMessages(decimals: number, symbol?: string): TAmountMessages {
  const places = decimals === 1 ? '1 decimal place' : `${decimals} decimal places`;
  return {
    REQUIRED: 'Amount is required',
    INVALID: 'Enter the amount as a number, like 0.5',
    NEGATIVE: 'Amount cannot be negative',
    TOO_MANY_DECIMALS: `Amount can have at most ${places}${symbol ? ` for ${symbol}` : ''}`,
    // The product's own wording, word for word, for an amount that must be above zero.
    NOT_POSITIVE: 'Amount must be greater than 0',
    TOO_LARGE: 'Amount is too large',
  };
}

// Made once per catalogue asset: stored balances are parsed with them on every read.
const messagesOfAsset = new Map<TAsset, TAmountMessages>();

/** Messages for an asset's amounts: its decimals, named by its symbol. */
export function assetAmountMessages(asset: TAsset): TAmountMessages {
  let messages = messagesOfAsset.get(asset);
  if (!messages) {
    messages = Object.freeze(amountMessages(asset.decimals, asset.symbol));
    messagesOfAsset.set(asset, messages);
  }
  return messages;
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new RangeError(`decimals must be an integer from 0 to ${MAX_DECIMALS}, got ${decimals}`);
  }
}

// Powers of ten up to what two scales multiplied need (a price times an amount), made once:
// `10n ** BigInt(n)` on every call was a tenth of the time of valuing a page of balances.
const POW10: readonly bigint[] = Array.from(
  { length: 2 * MAX_DECIMALS + 1 },
  (_, i) => 10n ** BigInt(i),
);

function pow10(exponent: number): bigint {
  return POW10[exponent] ?? 10n ** BigInt(exponent);
}

// Digits with an optional fraction; either side of the point may be empty ('.5', '5.'),
// checked for at least one digit separately. ASCII digits only.
const AMOUNT_PATTERN = /^([0-9]*)(?:\.([0-9]*))?$/;

function failAmount(
  code: TAmountErrorCode,
  decimals: number,
  messages: Partial<TAmountMessages>,
): never {
  throw new AmountError(code, messages[code] ?? amountMessages(decimals)[code]);
}

/**
 * Parses a typed amount into minor units. Accepts '1', '1.5', '.5', '5.', surrounding spaces;
 * trailing fraction zeros beyond `decimals` are allowed since they change nothing
 * ('1.000000000' BTC). Refuses empty, signs, exponents ('1e3'), grouping commas and any
 * other character, more significant fraction digits than `decimals`, and amounts with more
 * than MAX_AMOUNT_INTEGER_DIGITS whole digits. Zero is accepted: whether zero makes sense is
 * the caller's rule (a balance may be 0, a withdrawal may not; see ZAmount).
 *
 * @throws AmountError with a message from `messages` (defaults: amountMessages(decimals)).
 */
export function parseAmount(
  input: string,
  decimals: number,
  messages: Partial<TAmountMessages> = {},
): bigint {
  assertDecimals(decimals);
  // Messages are built only on failure, and no closure is made per call: balances are
  // parsed on every dashboard and users-screen request.

  const trimmed = input.trim();
  if (trimmed === '') return failAmount('REQUIRED', decimals, messages);
  if (trimmed.length > MAX_AMOUNT_INPUT_LENGTH) return failAmount('INVALID', decimals, messages);

  const negative = trimmed.startsWith('-');
  const match = AMOUNT_PATTERN.exec(negative ? trimmed.slice(1) : trimmed);
  const whole = match?.[1] ?? '';
  const rawFraction = match?.[2] ?? '';
  if (!match || whole.length + rawFraction.length === 0)
    return failAmount('INVALID', decimals, messages);
  // Only now, so '-abc' reads as not-a-number rather than as a negative amount.
  if (negative) return failAmount('NEGATIVE', decimals, messages);

  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > decimals) return failAmount('TOO_MANY_DECIMALS', decimals, messages);
  const significantWhole = whole.replace(/^0+/, '');
  if (significantWhole.length > MAX_AMOUNT_INTEGER_DIGITS)
    return failAmount('TOO_LARGE', decimals, messages);

  // One BigInt of all the digits: a whole part and a fraction made separately and joined by
  // multiplying were half the time of reading a stored balance.
  return BigInt(`${significantWhole}${fraction.padEnd(decimals, '0')}` || '0');
}

export type TFormatAmountOptions = {
  /** Fraction digits always shown, padding with zeros (default 0). */
  minFractionDigits?: number;
  /** Fraction digits at most; further digits are cut, never rounded (default: all). */
  maxFractionDigits?: number;
  /** Group whole digits in threes with commas, as en-US does (default false). */
  grouping?: boolean;
};

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Minor units as an exact decimal string: 150000000n with 8 decimals is '1.5'.
 *
 * When `maxFractionDigits` cuts digits the value is rounded DOWN, toward zero: a balance
 * shown with fewer decimals must never read as more than is there (0.123456789 ETH shows
 * as 0.123456 with 6 digits, not 0.123457). A value cut to zero shows without a minus sign.
 */
export function formatAmount(
  minor: bigint,
  decimals: number,
  opts: TFormatAmountOptions = {},
): string {
  assertDecimals(decimals);
  const minDigits = Math.max(0, opts.minFractionDigits ?? 0);
  const maxDigits = Math.max(minDigits, opts.maxFractionDigits ?? decimals);

  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const scale = pow10(decimals);
  const wholeDigits = (abs / scale).toString();
  const allFraction = decimals === 0 ? '' : (abs % scale).toString().padStart(decimals, '0');

  const significant = allFraction.slice(0, maxDigits).replace(/0+$/, '');
  const fraction = significant.padEnd(minDigits, '0');

  const whole = opts.grouping ? groupThousands(wholeDigits) : wholeDigits;
  // bigint digits have no leading zeros: the shown figure is zero when its whole part is '0'
  // and no significant fraction digit is left.
  const isZero = wholeDigits === '0' && significant === '';
  const sign = negative && !isZero ? '-' : '';
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

function requireAsset(assetId: TAnyAssetId | string): TAsset {
  const asset = assetById(assetId);
  if (!asset) throw new RangeError(`Unknown asset: ${assetId}`);
  return asset;
}

/** A typed or wire amount of an asset in minor units, with that asset's messages. */
export function toMinor(assetId: TAnyAssetId, amount: string): bigint {
  const asset = requireAsset(assetId);
  return parseAmount(amount, asset.decimals, assetAmountMessages(asset));
}

/** Minor units of an asset as an exact decimal string for the wire (all digits kept). */
export function fromMinor(assetId: TAnyAssetId, minor: bigint): string {
  return formatAmount(minor, requireAsset(assetId).decimals);
}

/** An exact signed decimal: value = digits / 10^scale. */
type TDecimal = { digits: bigint; scale: number };

const DECIMAL_PATTERN = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/**
 * Parses a decimal string that came from our own code or data (prices, rates, USD values),
 * not from a customer: strict form, sign allowed, any scale up to MAX_DECIMALS.
 */
function parseDecimal(value: string, what: string): TDecimal {
  const match = value.length <= MAX_AMOUNT_INPUT_LENGTH ? DECIMAL_PATTERN.exec(value.trim()) : null;
  const fraction = match?.[3] ?? '';
  if (!match || fraction.length > MAX_DECIMALS) {
    throw new RangeError(`${what} is not a decimal number: ${JSON.stringify(value)}`);
  }
  const digits = BigInt(`${match[2] ?? '0'}${fraction}`);
  return { digits: match[1] === '-' ? -digits : digits, scale: fraction.length };
}

/** n / d rounded half-up, ties away from zero, for d > 0. */
function divRoundHalfUp(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const quotient = abs / d;
  const rounded = (abs % d) * 2n >= d ? quotient + 1n : quotient;
  return negative ? -rounded : rounded;
}

/** Cents as a '1234.50' string. */
export function centsToString(cents: bigint): string {
  return formatAmount(cents, 2, { minFractionDigits: 2 });
}

/** A decimal rescaled to cents, rounded half-up. */
function toCents(value: TDecimal): bigint {
  return value.scale <= 2
    ? value.digits * pow10(2 - value.scale)
    : divRoundHalfUp(value.digits, pow10(value.scale - 2));
}

// A page of balances values each wallet at one of a handful of prices: each price string
// is parsed once, not once per wallet. Bounded, as prices change over time.
const parsedPrices = new Map<string, TDecimal>();
const PARSED_PRICES_MAX = 64;

function parsePrice(priceUsd: string): TDecimal {
  let price = parsedPrices.get(priceUsd);
  if (price === undefined) {
    price = parseDecimal(priceUsd, 'Price');
    if (price.digits < 0n) throw new RangeError(`Price cannot be negative: ${priceUsd}`);
    if (parsedPrices.size >= PARSED_PRICES_MAX) parsedPrices.clear();
    parsedPrices.set(priceUsd, price);
  }
  return price;
}

/**
 * USD value of an amount in cents: minor units times a USD price (decimal string), exact,
 * then rounded once to cents, half-up (ties away from zero), e.g. 0.005 USD is 1 cent.
 * Rounding only at the end keeps a value from drifting by more than half a cent. Cents add
 * up exactly, so a total of many values is their cents summed (as sumUsd would give).
 */
export function usdCents(minor: bigint, decimals: number, priceUsd: string): bigint {
  assertDecimals(decimals);
  const price = parsePrice(priceUsd);
  // minor / 10^decimals × digits / 10^scale, in cents: × 100.
  return divRoundHalfUp(minor * price.digits * 100n, pow10(decimals + price.scale));
}

/** USD value of an amount as a '1234.50' string: usdCents, formatted. */
export function mulPrice(minor: bigint, decimals: number, priceUsd: string): string {
  return centsToString(usdCents(minor, decimals, priceUsd));
}

/**
 * Sum of USD values (decimal strings, e.g. from mulPrice), exact, then rounded to cents
 * half-up. '0.00' for no values.
 */
export function sumUsd(values: readonly string[]): string {
  const parsed = values.map((v) => parseDecimal(v, 'USD value'));
  const scale = Math.max(2, ...parsed.map((p) => p.scale));
  const total = parsed.reduce((sum, p) => sum + p.digits * pow10(scale - p.scale), 0n);
  return centsToString(toCents({ digits: total, scale }));
}

/**
 * Orders two decimal strings by value ('1.50' equals '1.5'): -1, 0 or 1, for sorting
 * amounts as they arrive on the wire. bigint minor units compare with < and > directly.
 */
export function compareAmounts(a: string, b: string): -1 | 0 | 1 {
  const x = parseDecimal(a, 'Amount');
  const y = parseDecimal(b, 'Amount');
  const scale = Math.max(x.scale, y.scale);
  const left = x.digits * pow10(scale - x.scale);
  const right = y.digits * pow10(scale - y.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The amount field of a request body: a string (a JSON number would already have lost
 * precision), positive, at most `decimals` places. Outputs the normalized decimal string:
 * no leading zeros, no trailing fraction zeros (' 01.50 ' becomes '1.5').
 */
export function ZAmount(decimals: number, messages: Partial<TAmountMessages> = {}) {
  assertDecimals(decimals);
  const text = { ...amountMessages(decimals), ...messages };
  return z
    .string({
      error: (issue) => (issue.input === undefined ? text.REQUIRED : text.INVALID),
    })
    .transform((input, ctx) => {
      let minor: bigint;
      try {
        minor = parseAmount(input, decimals, text);
      } catch (error) {
        if (!(error instanceof AmountError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message, input });
        return z.NEVER;
      }
      if (minor === 0n) {
        ctx.addIssue({ code: 'custom', message: text.NOT_POSITIVE, input });
        return z.NEVER;
      }
      return formatAmount(minor, decimals);
    });
}

/** ZAmount with an asset's decimals and its symbol in the messages. */
export function ZAssetAmount(assetId: TAnyAssetId) {
  const asset = requireAsset(assetId);
  return ZAmount(asset.decimals, assetAmountMessages(asset));
}

/** Fiat is kept to cents. */
export const FIAT_DECIMALS = 2;

/** Which way convertFiat goes; `rate` is always USD per 1 AUD (the spec's default 0.66). */
export type TFiatDirection = 'aud-to-usd' | 'usd-to-aud';

/**
 * The bank-transfer form's currency inputs: AUD to USD is amount × rate,
 * USD to AUD is amount ÷ rate, each computed exactly and rounded once to cents, half-up
 * (ties away from zero). Returns e.g. '66.00'.
 */
export function convertFiat(amount: string, rate: string, direction: TFiatDirection): string {
  const value = parseDecimal(amount, 'Amount');
  const r = parseDecimal(rate, 'Rate');
  if (r.digits <= 0n) throw new RangeError(`Rate must be positive: ${rate}`);
  // value = v / 10^vs, rate = r / 10^rs; cents = result × 100.
  const cents =
    direction === 'aud-to-usd'
      ? divRoundHalfUp(value.digits * r.digits * 100n, pow10(value.scale + r.scale))
      : divRoundHalfUp(value.digits * pow10(r.scale) * 100n, r.digits * pow10(value.scale));
  return centsToString(cents);
}

/**
 * What an AUD bank payout takes from the asset that funds it (product.md M11): AUD → USD at
 * `audUsdRate` (USD per 1 AUD), rounded to cents as the form shows it, then USD → the asset
 * at `priceUsd`, rounded up to the asset's smallest unit so the amount held always covers
 * the USD value. The same function serves the form's preview and the server's hold.
 */
export function payoutFunding(
  amountAud: string,
  audUsdRate: string,
  priceUsd: string,
  decimals: number,
): { usdAmount: string; amount: bigint } {
  assertDecimals(decimals);
  const usdAmount = convertFiat(amountAud, audUsdRate, 'aud-to-usd');
  const cents = parseDecimal(usdAmount, 'USD amount').digits;
  const price = parsePrice(priceUsd);
  if (price.digits <= 0n) throw new RangeError(`Price must be positive: ${priceUsd}`);
  // amount = cents / 100 / (digits / 10^scale) coins = cents × 10^(scale + decimals) / (digits × 100) minor.
  const numerator = cents * pow10(price.scale + decimals);
  const denominator = price.digits * 100n;
  const amount = (numerator + denominator - 1n) / denominator;
  return { usdAmount, amount };
}

/**
 * A decimal string rounded half-up to at most `places` decimals ('0.65432109876' to 10 is
 * '0.6543210988'): a rate is rounded to what its column keeps before it is used, so the
 * rate shown with a figure is the rate that made it.
 */
export function roundDecimal(value: string, places: number): string {
  assertDecimals(places);
  const parsed = parseDecimal(value, 'Decimal');
  const digits =
    parsed.scale <= places
      ? parsed.digits * pow10(places - parsed.scale)
      : divRoundHalfUp(parsed.digits, pow10(parsed.scale - places));
  return formatAmount(digits, places);
}
