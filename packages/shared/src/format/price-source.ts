import type { z } from 'zod';
import type { ZPriceSource } from '../schemas/money';
import { formatAge, type TDateInput } from './dates';

export type TPriceSource = z.infer<typeof ZPriceSource>;

/** A short name for where prices came from (a badge), and the sentence that explains it. */
export type TPriceSourceWords = { label: string; detail: string | null };

/**
 * What a screen says about the prices it values money at, the same words for customers and
 * staff: live prices; the last live prices and how old they are (the feed stopped
 * answering); or the catalogue's prices (the feed was never reached since the server
 * started), which are no market price at all.
 */
export function priceSourceWords(
  source: TPriceSource,
  pricesAt: TDateInput | null,
  now: number = Date.now(),
): TPriceSourceWords {
  switch (source) {
    case 'live':
      return { label: 'Live prices', detail: null };
    case 'cached':
      return {
        label: 'Last live prices',
        detail:
          pricesAt === null
            ? 'The price feed is not answering: values use the last live prices.'
            : `The price feed is not answering: values use the last live prices, from ${formatAge(pricesAt, now)} ago.`,
      };
    case 'fallback':
      return {
        label: 'Catalogue prices',
        detail:
          'The price feed has never been reached: values use catalogue prices, not market prices.',
      };
  }
}
