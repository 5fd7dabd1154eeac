import {
  fromMinor,
  mulPrice,
  parseAmount,
  percentChangeOf,
  sumUsd,
  type TAsset,
  type TAssetId,
  type TWalletsResponse,
} from '@coffer/shared';
import type { PriceBook, PriceQuote } from '../prices';
import { STALE_PRICES_MESSAGE } from '../prices';
import {
  CUSTOMER_WALLETS,
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

/** A wallet with its asset's price now and 24 hours ago, 10^-18 USD (null: unknown). */
type Priced = { wallet: Held; now: bigint; dayAgo: bigint | null };

/**
 * The price of 24 hours ago (product.md M3) as far as the book alone says it: from the
 * feed's own 24 h change, or the fixed price of a stablecoin; null when nothing knows (a
 * catalogue fallback price is no price at all, so nothing is compared with it); undefined
 * when only the stored snapshots can tell.
 */
function fromBook(asset: TAsset, quote: PriceQuote, book: PriceBook) {
  const now = parseAmount(quote.priceUsd, PRICE_SCALE);
  if (isFixedPrice(asset)) return { now, dayAgo: now };
  if (book.source === 'fallback') return { now, dayAgo: null };
  if (quote.change24hPct === null) return { now, dayAgo: undefined };
  // now = then × (100 + change) / 100
  const denominator = HUNDRED + signedUnits(quote.change24hPct, PRICE_SCALE);
  return { now, dayAgo: denominator > 0n ? (now * HUNDRED) / denominator : null };
}

// A book is replaced, never changed, by each refresh: its quotes are parsed once per book
// rather than on every dashboard read.
const parsedBooks = new WeakMap<PriceBook, Map<TAssetId, ReturnType<typeof fromBook>>>();

function parsedQuote(book: PriceBook, id: TAssetId) {
  let parsed = parsedBooks.get(book);
  if (!parsed) {
    parsed = new Map(
      CUSTOMER_WALLETS.map(({ id, asset }) => [id, fromBook(asset, book.quotes[id], book)]),
    );
    parsedBooks.set(book, parsed);
  }
  const quote = parsed.get(id);
  if (!quote) throw new Error(`no quote for ${id}`);
  return quote;
}

/**
 * Each wallet with its asset's prices. The snapshots are read only for an asset the book is
 * silent on (a cached book without the feed's 24 h figures), one after the other: the usual
 * read waits for nothing here.
 */
async function withPrices(
  ctx: WalletsContext,
  wallets: Held[],
  book: PriceBook,
): Promise<Priced[]> {
  const priced: Priced[] = [];
  const dayAgoAt = new Date(Date.now() - DAY_MS);
  for (const wallet of wallets) {
    const { now, dayAgo } = parsedQuote(book, wallet.id);
    if (dayAgo !== undefined) {
      priced.push({ wallet, now, dayAgo });
      continue;
    }
    const then = await ctx.prices.priceAt(wallet.asset.priceId, dayAgoAt);
    priced.push({ wallet, now, dayAgo: then === null ? null : parseAmount(then, PRICE_SCALE) });
  }
  return priced;
}

/** Value now against the same balances at the prices of 24 hours ago, in percent. */
function portfolioChange(wallets: Priced[]): string | null {
  let valueNow = 0n;
  let valueThen = 0n;
  for (const { wallet, now, dayAgo } of wallets) {
    if (wallet.balance === 0n) continue;
    if (dayAgo === null) return null;
    valueNow += exactValue(wallet.balance, wallet.asset, now);
    valueThen += exactValue(wallet.balance, wallet.asset, dayAgo);
  }
  if (valueThen === 0n) return null;
  return percentChangeOf(valueThen, valueNow);
}

/** GET /api/wallets: one query for the wallets, prices from memory. */
export async function listWallets(ctx: WalletsContext, userId: string): Promise<TWalletsResponse> {
  const book = ctx.prices.current();
  const wallets = await withPrices(ctx, await holdings(ctx, userId), book);
  const presented = wallets.map(({ wallet, now, dayAgo }) => {
    const { id, asset, row, balance, held } = wallet;
    const quote = book.quotes[id];
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
      change24hPct: quote.change24hPct ?? (dayAgo === null ? null : percentChangeOf(dayAgo, now)),
    };
  });
  return {
    wallets: presented,
    totalUsd: sumUsd(presented.map((w) => w.usdValue ?? w.balanceFiat)),
    change24hPct: portfolioChange(wallets),
    priceSource: book.source,
    priceMessage: book.source === 'live' ? null : STALE_PRICES_MESSAGE,
  };
}
