import { formatAssetAmount, type TAsset } from '@coffer/shared';

/**
 * An amount as the form and its review show it: the asset's display decimals, and every
 * further digit it has (what is held is exactly what was typed, never rounded).
 */
export function amountText(minor: bigint | null, asset: TAsset): string {
  return minor === null ? '—' : formatAssetAmount(asset, minor, { exact: true });
}

/**
 * What a withdrawal moves: Coffer charges the network fee on top, and holds amount + fee
 * from the available balance until staff pay it out (product.md M6).
 */
export function FeeSummary({
  asset,
  amountMinor,
  feeMinor,
}: {
  asset: TAsset;
  amountMinor: bigint | null;
  feeMinor: bigint;
}) {
  const total = amountMinor === null ? null : amountMinor + feeMinor;
  return (
    <div className="rounded-lg border border-border bg-surface-2 p-4 text-sm">
      <dl className="space-y-2">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">You send</dt>
          <dd className="wrap-anywhere text-right font-medium tabular-nums text-fg">
            {amountText(amountMinor, asset)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">Network fee</dt>
          <dd className="wrap-anywhere text-right font-medium tabular-nums text-fg">
            {amountText(feeMinor, asset)}
          </dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-border pt-2">
          <dt className="font-medium text-fg">Total</dt>
          <dd className="wrap-anywhere text-right font-semibold tabular-nums text-fg">
            {amountText(total, asset)}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-muted">
        The total is held from your available balance until the withdrawal is processed, within 1-24
        hours.
      </p>
    </div>
  );
}
