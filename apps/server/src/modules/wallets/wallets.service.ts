import {
  ASSETS,
  CUSTOMER_ASSET_IDS,
  formatAmount,
  fromMinor,
  mulPrice,
  parseAmount,
  percentChange,
  sumUsd,
  type TAsset,
  type TAssetId,
  type TPortfolioHistoryResponse,
  type TWalletsResponse,
} from '@coffer/shared';
import type pg from 'pg';
import type { PriceBook, PriceQuote, PriceService } from '../prices';
import { STALE_PRICES_MESSAGE } from '../prices';
import { walletsRepository as repo, type WalletBalanceRow } from './wallets.repository';

/** Prices are compared at 18 decimals: exact for every price the feeds and snapshots hold. */
const PRICE_SCALE = 18;
const HUNDRED = 100n * 10n ** BigInt(PRICE_SCALE);
const DAY_MS = 24 * 3600_000;

/** USD stablecoins: the price service fixes them at 1, and no snapshot is kept of them. */
const FIXED_PRICE_SYMBOLS = new Set(['USDT', 'USDC']);
const isFixedPrice = (asset: TAsset) => FIXED_PRICE_SYMBOLS.has(asset.symbol);

const RANGE_SECONDS = { '24h': 24 * 3600, '7d': 7 * 24 * 3600, '30d': 30 * 24 * 3600 } as const;
/** Intervals of the chart; it has one point more, the last one being now. */
const INTERVALS = 48;

type Held = { id: TAssetId; asset: TAsset; row: WalletBalanceRow; balance: bigint; held: bigint };

/** The customer wallets in catalogue order. */
const CUSTOMER_WALLETS = CUSTOMER_ASSET_IDS.map((id) => ({ id, asset: ASSETS[id] }));

/** A signed decimal string ('-1.25') in units of 10^-decimals. */
function signedUnits(value: string, decimals: number): bigint {
  const text = value.trim();
  const negative = text.startsWith('-');
  const magnitude = parseAmount(negative ? text.slice(1) : text, decimals);
  return negative ? -magnitude : magnitude;
}

/** USD value in units of 10^-18 USD, before any rounding. */
function exactValue(minor: bigint, asset: TAsset, price: bigint): bigint {
  return (minor * price) / 10n ** BigInt(asset.decimals);
}

export function createWalletsService(deps: {
  pool: pg.Pool;
  prices: Pick<PriceService, 'current' | 'priceAt'>;
}) {
  /** The customer's catalogue wallets in catalogue order; missing ones are opened at zero. */
  async function holdings(userId: string): Promise<Held[]> {
    let rows = await repo.list(deps.pool, userId);
    const missing = CUSTOMER_WALLETS.filter(({ id }) => !rows.some((r) => r.asset_id === id));
    if (missing.length > 0) {
      await repo.createMissing(
        deps.pool,
        userId,
        missing.map(({ id, asset }) => ({ assetId: id, network: asset.network })),
      );
      rows = await repo.list(deps.pool, userId);
    }
    return CUSTOMER_WALLETS.map(({ id, asset }) => {
      const row = rows.find((r) => r.asset_id === id);
      if (!row) throw new Error(`wallet ${id} of ${userId} is missing`);
      return {
        id,
        asset,
        row,
        balance: parseAmount(row.balance, asset.decimals),
        held: parseAmount(row.held, asset.decimals),
      };
    });
  }

  /**
   * The price of 24 hours ago (product.md M3): from the feed's own 24 h change when the
   * book has one, else from the snapshots; null when neither knows. A catalogue fallback
   * price is no price at all, so nothing is compared with it.
   */
  async function priceDayAgo(
    asset: TAsset,
    quote: PriceQuote,
    book: PriceBook,
    now: Date,
  ): Promise<bigint | null> {
    const priceNow = parseAmount(quote.priceUsd, PRICE_SCALE);
    if (isFixedPrice(asset)) return priceNow;
    if (book.source === 'fallback') return null;
    if (quote.change24hPct !== null) {
      // now = then × (100 + change) / 100
      const denominator = HUNDRED + signedUnits(quote.change24hPct, PRICE_SCALE);
      return denominator > 0n ? (priceNow * HUNDRED) / denominator : null;
    }
    const then = await deps.prices.priceAt(asset.priceId, new Date(now.getTime() - DAY_MS));
    return then === null ? null : parseAmount(then, PRICE_SCALE);
  }

  /** Each wallet's asset price now and 24 hours ago (null when unknown), 10^-18 USD. */
  async function pricesNowAndThen(wallets: Held[], book: PriceBook) {
    const now = new Date();
    return Promise.all(
      wallets.map(async ({ id, asset }) => {
        const quote = book.quotes[id];
        return {
          now: parseAmount(quote.priceUsd, PRICE_SCALE),
          dayAgo: await priceDayAgo(asset, quote, book, now),
        };
      }),
    );
  }

  /** Value now against the same balances at the prices of 24 hours ago, in percent. */
  function portfolioChange(
    wallets: Held[],
    prices: Array<{ now: bigint; dayAgo: bigint | null }>,
  ): string | null {
    let valueNow = 0n;
    let valueThen = 0n;
    for (const [i, { asset, balance }] of wallets.entries()) {
      const price = prices[i];
      if (balance === 0n) continue;
      if (!price || price.dayAgo === null) return null;
      valueNow += exactValue(balance, asset, price.now);
      valueThen += exactValue(balance, asset, price.dayAgo);
    }
    if (valueThen === 0n) return null;
    return percentChange(formatAmount(valueThen, PRICE_SCALE), formatAmount(valueNow, PRICE_SCALE));
  }

  return {
    /** GET /api/wallets: one query for the wallets, prices from memory. */
    async list(userId: string): Promise<TWalletsResponse> {
      const book = deps.prices.current();
      const wallets = await holdings(userId);
      // Only a book without the feed's 24 h figures (cached, fallback) reads snapshots here.
      const prices = await pricesNowAndThen(wallets, book);
      const presented = wallets.map(({ id, asset, row, balance, held }, i) => {
        const quote = book.quotes[id];
        const then = prices[i]?.dayAgo ?? null;
        return {
          id: row.id,
          assetId: id,
          symbol: asset.symbol,
          name: asset.name,
          network: asset.network,
          decimals: asset.decimals,
          balance: fromMinor(id, balance),
          held: fromMinor(id, held),
          available: fromMinor(id, balance - held),
          usdValue: mulPrice(balance, asset.decimals, quote.priceUsd),
          balanceFiat: row.balance_fiat,
          priceUsd: quote.priceUsd,
          change24hPct:
            quote.change24hPct ??
            (then === null ? null : percentChange(formatAmount(then, PRICE_SCALE), quote.priceUsd)),
        };
      });
      return {
        wallets: presented,
        totalUsd: sumUsd(presented.map((w) => w.usdValue ?? w.balanceFiat)),
        change24hPct: portfolioChange(wallets, prices),
        priceSource: book.source,
        priceMessage: book.source === 'live' ? null : STALE_PRICES_MESSAGE,
      };
    },

    /**
     * The portfolio's USD value over a range, at INTERVALS + 1 points. The balance at a
     * point is today's balance minus the ledger effects after it (summed per interval by
     * PostgreSQL), valued at the newest price snapshot at that point, else today's price.
     * The last point is now, valued exactly as the dashboard values it.
     */
    async history(
      userId: string,
      range: TPortfolioHistoryResponse['range'],
    ): Promise<TPortfolioHistoryResponse> {
      const book = deps.prices.current();
      const stepSeconds = RANGE_SECONDS[range] / INTERVALS;
      const now = Date.now();
      const from = new Date(now - RANGE_SECONDS[range] * 1000);
      const priced = CUSTOMER_WALLETS.map((w) => w.asset).filter((a) => !isFixedPrice(a));
      const [wallets, effects, snapshots] = await Promise.all([
        holdings(userId),
        repo.effectsByBucket(deps.pool, userId, from, stepSeconds, INTERVALS),
        repo.pricesAtPoints(
          deps.pool,
          priced.map((a) => a.priceId),
          from,
          stepSeconds,
          INTERVALS,
        ),
      ]);

      // Effects after point k, per asset: a running sum from the newest interval back.
      const after = new Map<string, bigint[]>();
      for (const { asset } of wallets)
        after.set(asset.id, new Array<bigint>(INTERVALS + 1).fill(0n));
      for (const e of effects) {
        const sums = after.get(e.asset_id);
        const asset = wallets.find((w) => w.asset.id === e.asset_id)?.asset;
        if (!sums || !asset) continue;
        sums[e.bucket] = (sums[e.bucket] ?? 0n) + signedUnits(e.delta, asset.decimals);
      }
      for (const sums of after.values()) {
        for (let k = INTERVALS - 1; k >= 0; k--) sums[k] = (sums[k] ?? 0n) + (sums[k + 1] ?? 0n);
      }

      const priceAt = (asset: TAsset, k: number): string => {
        const snapshot = snapshots.find((s) => s.bucket === k && s.price_id === asset.priceId);
        return snapshot?.price ?? book.quotes[asset.id].priceUsd;
      };

      const points = [];
      for (let k = 0; k <= INTERVALS; k++) {
        const values = wallets.map(({ asset, balance }) => {
          if (k === INTERVALS)
            return mulPrice(balance, asset.decimals, book.quotes[asset.id].priceUsd);
          const then = balance - (after.get(asset.id)?.[k] ?? 0n);
          return mulPrice(then > 0n ? then : 0n, asset.decimals, priceAt(asset, k));
        });
        points.push({
          t: new Date(from.getTime() + k * stepSeconds * 1000).toISOString(),
          usd: sumUsd(values),
        });
      }
      return { range, points };
    },
  };
}

export type WalletsService = ReturnType<typeof createWalletsService>;
