import { mulPrice, sumUsd, type TAsset, type TPortfolioHistoryResponse } from '@coffer/shared';
import { type BucketEffect, walletsRepository as repo } from './wallets.repository';
import {
  CUSTOMER_WALLETS,
  holdings,
  isFixedPrice,
  signedUnits,
  type WalletsContext,
} from './wallets-context';

const DAY = 24 * 3600;
const RANGE_SECONDS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '1y': 365 * DAY } as const;
/** Intervals of the chart; it has one point more, the last one being now. */
const INTERVALS = 48;

/**
 * The portfolio's USD value over a range, at INTERVALS + 1 points. The balance at a
 * point is today's balance minus the ledger effects after it (from the hourly sums the
 * ledger keeps, plus the point's own sub-hour window), valued at the newest price snapshot
 * at that point, else today's price.
 * The last point is now, valued exactly as the dashboard values it.
 */
export async function portfolioHistory(
  ctx: WalletsContext,
  userId: string,
  range: TPortfolioHistoryResponse['range'],
): Promise<TPortfolioHistoryResponse> {
  const book = ctx.prices.current();
  const stepSeconds = RANGE_SECONDS[range] / INTERVALS;
  const now = Date.now();
  const from = new Date(now - RANGE_SECONDS[range] * 1000);
  const priced = CUSTOMER_WALLETS.map((w) => w.asset).filter((a) => !isFixedPrice(a));
  const [wallets, effects, snapshots] = await Promise.all([
    holdings(ctx, userId),
    repo.effectsByBucket(ctx.pool, userId, from, stepSeconds, INTERVALS),
    repo.pricesAtPoints(
      ctx.pool,
      priced.map((a) => a.priceId),
      from,
      stepSeconds,
      INTERVALS,
    ),
  ]);

  // Effects after point k, per asset: the hourly sums as a running sum from the newest
  // interval back, then each point's own sub-hour window.
  const after = new Map<string, bigint[]>();
  for (const { asset } of wallets) after.set(asset.id, new Array<bigint>(INTERVALS + 1).fill(0n));
  const units = (e: BucketEffect) => {
    const asset = wallets.find((w) => w.asset.id === e.asset_id)?.asset;
    return asset ? signedUnits(e.delta, asset.decimals) : 0n;
  };
  for (const e of effects) {
    const sums = after.get(e.asset_id);
    if (sums && e.kind === 'hour') sums[e.bucket] = (sums[e.bucket] ?? 0n) + units(e);
  }
  for (const sums of after.values()) {
    for (let k = INTERVALS - 1; k >= 0; k--) sums[k] = (sums[k] ?? 0n) + (sums[k + 1] ?? 0n);
  }
  for (const e of effects) {
    const sums = after.get(e.asset_id);
    if (sums && e.kind === 'point') sums[e.bucket] = (sums[e.bucket] ?? 0n) + units(e);
  }

  const priceAt = (asset: TAsset, k: number): string => {
    const snapshot = snapshots.find((s) => s.bucket === k && s.price_id === asset.priceId);
    return snapshot?.price ?? book.quotes[asset.id].priceUsd;
  };

  const points = [];
  for (let k = 0; k <= INTERVALS; k++) {
    const values = wallets.map(({ asset, balance }) => {
      if (k === INTERVALS) return mulPrice(balance, asset.decimals, book.quotes[asset.id].priceUsd);
      const then = balance - (after.get(asset.id)?.[k] ?? 0n);
      return mulPrice(then > 0n ? then : 0n, asset.decimals, priceAt(asset, k));
    });
    points.push({
      t: new Date(from.getTime() + k * stepSeconds * 1000).toISOString(),
      usd: sumUsd(values),
    });
  }
  return { range, points };
}
