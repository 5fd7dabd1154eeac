import { assetBySlug, CUSTOMER_ASSETS, type TAsset } from '@coffer/shared';

/**
 * The customer asset a URL segment names, case-insensitively: its slug ('usdttrc20'), its
 * id with the dash ('USDT-TRC20'), or a bare symbol ('usdt' is the first USDT wallet).
 */
export function resolveAsset(segment: string | undefined): TAsset | undefined {
  if (!segment) return undefined;
  const wanted = segment.trim().toLowerCase();
  return (
    assetBySlug(wanted) ??
    assetBySlug(wanted.replace(/-/g, '')) ??
    CUSTOMER_ASSETS.find((asset) => asset.symbol.toLowerCase() === wanted)
  );
}
