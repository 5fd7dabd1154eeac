import type { TAnyAssetId } from '@coffer/shared';

export type PriceQuote = {
  /** USD per whole coin, exact decimal string. */
  priceUsd: string;
  /** 24 h change in percent: from the feed, else from snapshots, else null. */
  change24hPct: string | null;
};

/** What the server knows about prices right now; read synchronously from memory. */
export type PriceBook = {
  /** live: the last refresh succeeded; cached: it failed and older feed prices are used; fallback: catalogue prices. */
  source: 'live' | 'cached' | 'fallback';
  updatedAt: Date | null;
  quotes: Record<TAnyAssetId, PriceQuote>;
  /** USD per 1 AUD; 0.66 when the rate service was never reached. */
  audUsd: { rate: string; live: boolean };
};

export type PriceService = {
  current(): PriceBook;
  /** Fetches the feeds now, stores a snapshot, and returns the new book (or the old one on failure). */
  refresh(): Promise<PriceBook>;
  /** The price of an asset at or before `at` from the snapshots (for 24 h changes and charts). */
  priceAt(priceId: string, at: Date): Promise<string | null>;
};
