import { describe, expect, it } from 'vitest';
import { priceSourceWords } from './price-source';

describe('priceSourceWords', () => {
  const now = Date.parse('2026-11-28T16:53:00Z');

  it('names live prices and says nothing more of them', () => {
    expect(priceSourceWords('live', '2026-11-28T16:52:00Z', now)).toEqual({
      label: 'Live prices',
      detail: null,
    });
  });

  it('says cached prices are the last live ones, and how old', () => {
    expect(priceSourceWords('cached', '2026-11-28T16:41:00Z', now)).toEqual({
      label: 'Last live prices',
      detail:
        'The price feed is not answering: values use the last live prices, from 12 minutes ago.',
    });
    expect(priceSourceWords('cached', null, now).detail).toBe(
      'The price feed is not answering: values use the last live prices.',
    );
  });

  it('says catalogue prices are not market prices: the feed was never reached', () => {
    expect(priceSourceWords('fallback', null, now)).toEqual({
      label: 'Catalogue prices',
      detail:
        'The price feed has never been reached: values use catalogue prices, not market prices.',
    });
  });
});
