import {
  ADMIN_AUD_PER_USD,
  ASSETS,
  convertFiat,
  formatAmount,
  mulPrice,
  parseAmount,
  type TAnyAssetId,
} from '@coffer/shared';

/**
 * The add-transaction form's three amounts, recalculated from whichever was typed
 *: crypto × live price = USD; USD × 1.52 = AUD. Exact decimal arithmetic
 * throughout; crypto is offered to 6 decimals and fiat to 2, as the form's steps say.
 */
export const CRYPTO_FORM_DIGITS = 6;

/** USD per coin for the form: the live price, USDC at 1 USD. */
export function priceFor(assetId: TAnyAssetId, livePrice: string | undefined): string {
  if (assetId === 'USDC') return '1';
  return livePrice ?? ASSETS[assetId].fallbackPriceUsd;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function parse(value: string): { digits: bigint; scale: number } | null {
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const fraction = m[2] ?? '';
  return { digits: BigInt(`${m[1]}${fraction}`), scale: fraction.length };
}

function cryptoDigits(assetId: TAnyAssetId): number {
  return Math.min(CRYPTO_FORM_DIGITS, ASSETS[assetId].decimals);
}

/** crypto × price, in USD to the cent; '' when the amount is not a number yet. */
export function usdFromCrypto(assetId: TAnyAssetId, crypto: string, price: string): string {
  try {
    const asset = ASSETS[assetId];
    return mulPrice(parseAmount(crypto, asset.decimals), asset.decimals, price);
  } catch {
    return '';
  }
}

/** USD ÷ price, rounded half-up to the form's crypto digits; '' when not computable. */
export function cryptoFromUsd(assetId: TAnyAssetId, usd: string, price: string): string {
  const u = parse(usd);
  const p = parse(price);
  if (!u || !p || p.digits === 0n) return '';
  const digits = cryptoDigits(assetId);
  // (u / 10^us) / (p / 10^ps) × 10^digits = u × 10^(ps + digits) / (p × 10^us)
  const n = u.digits * 10n ** BigInt(p.scale + digits);
  const d = p.digits * 10n ** BigInt(u.scale);
  const q = n / d;
  const rounded = (n % d) * 2n >= d ? q + 1n : q;
  return formatAmount(rounded, digits);
}

/** USD × 1.52 in AUD to the cent. */
export function audFromUsd(usd: string): string {
  return parse(usd) ? convertFiat(usd.trim(), ADMIN_AUD_PER_USD, 'aud-to-usd') : '';
}

/** AUD ÷ 1.52 in USD to the cent. */
export function usdFromAud(aud: string): string {
  return parse(aud) ? convertFiat(aud.trim(), ADMIN_AUD_PER_USD, 'usd-to-aud') : '';
}
