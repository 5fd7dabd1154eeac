import { ASSETS, CUSTOMER_ASSETS, ZPricesResponse } from '@coffer/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PriceBook } from './price-book';

export const STALE_PRICES_MESSAGE = 'Failed to fetch live prices, using cached data';

export function presentPrices(book: PriceBook) {
  return {
    prices: CUSTOMER_ASSETS.map((a) => ({
      assetId: a.id,
      priceId: ASSETS[a.id].priceId,
      priceUsd: book.quotes[a.id].priceUsd,
      change24hPct: book.quotes[a.id].change24hPct,
    })),
    source: book.source,
    updatedAt: book.updatedAt?.toISOString() ?? null,
    message: book.source === 'live' ? null : STALE_PRICES_MESSAGE,
    audUsd: book.audUsd,
  };
}

export function pricesRoutes(prices: { current(): PriceBook }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/prices', { schema: { response: { 200: ZPricesResponse } } }, async () =>
      presentPrices(prices.current()),
    );
  };
}
