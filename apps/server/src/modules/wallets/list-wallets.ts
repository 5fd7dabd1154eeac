import {
  formatAmount,
  fromMinor,
  mulPrice,
  parseAmount,
  percentChange,
  sumUsd,
  type TAsset,
  type TWalletsResponse,
} from '@coffer/shared';
import type { PriceBook, PriceQuote } from '../prices';
import { STALE_PRICES_MESSAGE } from '../prices';
import {
  type Held,
  holdings,
  isFixedPrice,
  PRICE_SCALE,
  signedUnits,
  type WalletsContext,
} from './wallets-context';

/** The dashboard's wallets: balances, USD values, and the real 24 h change. */

const HUNDRED = 100n * 10n ** BigInt(PRICE_SCALE);
const DAY_MS = 24 * 3600_000;

/** USD value in units of 10^-18 USD, before any rounding. */
function exactValue(minor: bigint, asset: TAsset, price: bigint): bigint {
  return (minor * price) / 10n ** BigInt(asset.decimals);
}

/**
 * The price of 24 hours ago (product.md M3): from the feed's own 24 h change when the
 * book has one, else from the snapshots; null when neither knows. A catalogue fallback
 * price is no price at all, so nothing is compared with it.
 */
async function priceDayAgo(
  ctx: WalletsContext,
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
  const then = await ctx.prices.priceAt(asset.priceId, new Date(now.getTime() - DAY_MS));
  return then === null ? null : parseAmount(then, PRICE_SCALE);
}

/** Each wallet's asset price now and 24 hours ago (null when unknown), 10^-18 USD. */
async function pricesNowAndThen(ctx: WalletsContext, wallets: Held[], book: PriceBook) {
  const now = new Date();
  return Promise.all(
    wallets.map(async ({ id, asset }) => {
      const quote = book.quotes[id];
      return {
        now: parseAmount(quote.priceUsd, PRICE_SCALE),
        dayAgo: await priceDayAgo(ctx, asset, quote, book, now),
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

/** GET /api/wallets: one query for the wallets, prices from memory. */
export async function listWallets(ctx: WalletsContext, userId: string): Promise<TWalletsResponse> {
  const book = ctx.prices.current();
  const wallets = await holdings(ctx, userId);
  // Only a book without the feed's 24 h figures (cached, fallback) reads snapshots here.
  const prices = await pricesNowAndThen(ctx, wallets, book);
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
}
