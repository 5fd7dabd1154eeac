import {
  CUSTOMER_ASSETS,
  formatAssetAmount,
  parseAmount,
  payoutFunding,
  type TAsset,
  type TPricesResponse,
  type TWalletsResponse,
  toMinorOrNull,
} from '@coffer/shared';

/**
 * What a bank payout would take from each asset the customer could fund it from
 * (product.md M11). The server converts with the same function at its own rates when the
 * request arrives; this is the preview at the rates the page last read.
 */
export type TFundingOption = {
  asset: TAsset;
  /** What the wallet has free, in minor units (balance minus what pending payouts hold). */
  available: bigint;
  /** USD per one unit, from the price service; null until prices are loaded. */
  priceUsd: string | null;
  /** What the entered AUD amount would take, in minor units; null without an amount or price. */
  need: bigint | null;
  /** False when `need` is more than `available`. */
  enough: boolean;
};

/** A well-formed AUD amount of at least 0.01 (the form's rule), or null. */
export function payableAud(aud: string): string | null {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(aud)) return null;
  try {
    return parseAmount(aud, 2) >= 1n ? aud : null;
  } catch {
    return null;
  }
}

/** The assets with something available to pay from, in the catalogue's order. */
export function fundingOptions(
  wallets: TWalletsResponse | undefined,
  prices: TPricesResponse | undefined,
  aud: string | null,
): TFundingOption[] {
  if (!wallets) return [];
  const options: TFundingOption[] = [];
  for (const asset of CUSTOMER_ASSETS) {
    const wallet = wallets.wallets.find((w) => w.assetId === asset.id);
    const available = wallet ? (toMinorOrNull(wallet.available, asset.decimals) ?? 0n) : 0n;
    if (available <= 0n) continue;
    const priceUsd = prices?.prices.find((p) => p.assetId === asset.id)?.priceUsd ?? null;
    let need: bigint | null = null;
    if (aud !== null && priceUsd !== null && prices) {
      try {
        need = payoutFunding(aud, prices.audUsd.rate, priceUsd, asset.decimals).amount;
      } catch {
        // A price of 0 or a malformed one: no preview, the server decides.
        need = null;
      }
    }
    options.push({ asset, available, priceUsd, need, enough: need === null || need <= available });
  }
  return options;
}

/**
 * A crypto amount as every screen shows it (the asset's display decimals, cut toward zero),
 * so the form and the history show the same figure for the same hold.
 */
export function cryptoFigure(minor: bigint, asset: TAsset): string {
  return formatAssetAmount(asset, minor);
}
