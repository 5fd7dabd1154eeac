/** Prices and the AUD rate: their front door (see ../README.md). */
export type { PriceBook, PriceQuote, PriceService } from './price-book';
export { presentPrices, pricesRoutes, STALE_PRICES_MESSAGE } from './prices.routes';
export { createPriceService, DEFAULT_AUD_USD } from './prices.service';
