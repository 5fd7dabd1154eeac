import { ALL_ASSET_IDS, ASSETS, percentChange, type TAnyAssetId } from '@coffer/shared';
import type pg from 'pg';
import type { Logger } from 'pino';
import { fetchAudUsd, fetchTicker, type TickerQuote } from './feeds';
import type { PriceBook, PriceQuote, PriceService } from './price-book';
import { pricesRepository as repo, type Snapshot } from './prices.repository';

/** USD per AUD when the rate service cannot be reached. */
export const DEFAULT_AUD_USD = '0.66';
const FEED_TIMEOUT_MS = 5_000;
const AUD_USD_ID = 'aud-usd';
/** Assets priced by the exchange feed; everything else is a USD stablecoin fixed at 1. */
const TICKERS: Partial<Record<TAnyAssetId, string>> = { BTC: 'BTCUSDT', ETH: 'ETHUSDT' };

type Options = {
  pool: pg.Pool;
  priceFeedUrl: string;
  fxFeedUrl: string;
  log: Logger;
  timeoutMs?: number;
  /**
   * Called after a refresh that changed what customers are shown (a price, a 24 h change,
   * the source or the AUD rate): the customers' screens are told to read them again.
   */
  onChange?: () => Promise<void>;
};

/** What a customer sees of a book; a refresh that leaves it equal is no change. */
function shownOf(book: PriceBook): string {
  return JSON.stringify([book.source, book.quotes, book.audUsd]);
}

function fallbackQuotes(): Record<TAnyAssetId, PriceQuote> {
  const quotes = {} as Record<TAnyAssetId, PriceQuote>;
  for (const id of ALL_ASSET_IDS)
    quotes[id] = { priceUsd: ASSETS[id].fallbackPriceUsd, change24hPct: null };
  return quotes;
}

/**
 * Live prices: BTC and ETH from the exchange ticker (both must succeed), stablecoins at 1,
 * AUD→USD from the rate service. Kept in memory and refreshed on a timer; every good
 * refresh is snapshotted. On failure the last good prices are served as 'cached', and
 * before any good refresh the catalogue's fallback prices as 'fallback'.
 */
export function createPriceService(
  opts: Options,
): PriceService & { loadCached(liveWithinMs?: number): Promise<void> } {
  const timeoutMs = opts.timeoutMs ?? FEED_TIMEOUT_MS;
  let book: PriceBook = {
    source: 'fallback',
    updatedAt: null,
    quotes: fallbackQuotes(),
    audUsd: { rate: DEFAULT_AUD_USD, live: false },
  };

  /** The feed's own 24 h change, else one computed from the snapshot of 24 h ago. */
  async function change24h(priceId: string, quote: TickerQuote): Promise<string | null> {
    if (quote.change24hPct !== null) return quote.change24hPct;
    const then = await repo.priceAt(opts.pool, priceId, new Date(Date.now() - 24 * 3600_000));
    return then ? percentChange(then, quote.price) : null;
  }

  async function refreshPrices(): Promise<Record<TAnyAssetId, PriceQuote>> {
    const entries = Object.entries(TICKERS) as Array<[TAnyAssetId, string]>;
    const tickers = await Promise.all(
      entries.map(([, symbol]) => fetchTicker(opts.priceFeedUrl, symbol, timeoutMs)),
    );
    const quotes = fallbackQuotes();
    for (const id of ALL_ASSET_IDS) quotes[id] = { priceUsd: '1', change24hPct: '0.00' };
    for (const [i, [id]] of entries.entries()) {
      const ticker = tickers[i];
      if (ticker)
        quotes[id] = {
          priceUsd: ticker.price,
          change24hPct: await change24h(ASSETS[id].priceId, ticker),
        };
    }
    return quotes;
  }

  async function refreshAudUsd(): Promise<PriceBook['audUsd']> {
    try {
      return { rate: await fetchAudUsd(opts.fxFeedUrl, timeoutMs), live: true };
    } catch (err) {
      opts.log.warn({ err: String(err) }, 'exchange rate unavailable; keeping the last rate');
      return { rate: book.audUsd.rate, live: false };
    }
  }

  return {
    current: () => book,

    async refresh() {
      const [prices, audUsd] = await Promise.all([
        refreshPrices().catch((err: unknown) => {
          opts.log.warn({ err: String(err) }, 'price feed unavailable; using cached prices');
          return null;
        }),
        refreshAudUsd(),
      ]);
      const before = shownOf(book);
      if (prices) {
        book = { source: 'live', updatedAt: new Date(), quotes: prices, audUsd };
        const snapshots: Snapshot[] = Object.keys(TICKERS).map((id) => {
          const q = prices[id as TAnyAssetId];
          return {
            priceId: ASSETS[id as TAnyAssetId].priceId,
            priceUsd: q.priceUsd,
            change24hPct: q.change24hPct,
          };
        });
        if (audUsd.live)
          snapshots.push({ priceId: AUD_USD_ID, priceUsd: audUsd.rate, change24hPct: null });
        await repo.insertSnapshots(opts.pool, snapshots);
      } else {
        book = { ...book, source: book.updatedAt ? 'cached' : 'fallback', audUsd };
      }
      if (opts.onChange && shownOf(book) !== before) await opts.onChange();
      return book;
    },

    priceAt: (priceId, at) => repo.priceAt(opts.pool, priceId, at),

    /**
     * At start-up: the newest snapshots stand in as cached prices until a refresh succeeds.
     * With `liveWithinMs`, on an instance that follows the one polling the feeds (jobs.ts):
     * snapshots at most that old are that instance's live prices.
     */
    async loadCached(liveWithinMs?: number) {
      const latest = await repo.latest(opts.pool);
      if (latest.length === 0) return;
      const quotes = fallbackQuotes();
      for (const id of ALL_ASSET_IDS) quotes[id] = { priceUsd: '1', change24hPct: '0.00' };
      const times: number[] = [];
      for (const [id] of Object.entries(TICKERS)) {
        const snap = latest.find((s) => s.priceId === ASSETS[id as TAnyAssetId].priceId);
        if (!snap) return;
        quotes[id as TAnyAssetId] = { priceUsd: snap.priceUsd, change24hPct: snap.change24hPct };
        times.push(snap.takenAt.getTime());
      }
      // As old as the oldest price in it.
      const updatedAt = new Date(Math.min(...times));
      const fx = latest.find((s) => s.priceId === AUD_USD_ID);
      const fresh = (at: Date) =>
        liveWithinMs !== undefined && Date.now() - at.getTime() <= liveWithinMs;
      book = {
        source: fresh(updatedAt) ? 'live' : 'cached',
        updatedAt,
        quotes,
        audUsd: fx ? { rate: fx.priceUsd, live: fresh(fx.takenAt) } : book.audUsd,
      };
    },
  };
}
