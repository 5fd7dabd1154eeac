import { assetById, formatAssetAmount } from '@coffer/shared';

/**
 * A crypto amount as every screen shows it (the asset's display decimals); `exact` for a fee,
 * which may be finer than those. The wire text if the asset is unexpected.
 */
export function cryptoText(amount: string, assetId: string, symbol: string, exact = false): string {
  const asset = assetById(assetId);
  return asset ? formatAssetAmount(asset, amount, { exact }) : `${amount} ${symbol}`;
}
