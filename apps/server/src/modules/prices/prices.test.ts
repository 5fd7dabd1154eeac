import { startFakeFeeds } from '@server-test/fake-feeds';
import { call, createTestApp, type TestApp, verifiedCustomer } from '@server-test/helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
afterEach(() => {
  feeds.state.mode = 'ok';
  feeds.state.fxMode = 'ok';
});

async function pricesSeenBy(cookie: string) {
  const res = await call(t, { url: '/api/prices', cookie });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('prices', () => {
  it('serves the catalogue fallback prices, saying so, before any feed answered', async () => {
    const user = await verifiedCustomer(t);
    const body = await pricesSeenBy(user.cookie);
    expect(body.source).toBe('fallback');
    expect(body.message).toBe('Failed to fetch live prices, using cached data');
    expect(body.prices.find((p: { assetId: string }) => p.assetId === 'BTC').priceUsd).toBe(
      '42069',
    );
    expect(body.audUsd).toEqual({ rate: '0.66', live: false });
  });

  it('serves live prices from the feed with its 24 h change, USDT at 1, and the AUD rate', async () => {
    await t.services.prices.refresh();
    const user = await verifiedCustomer(t);
    const body = await pricesSeenBy(user.cookie);
    expect(body.source).toBe('live');
    expect(body.message).toBeNull();
    const byId = Object.fromEntries(body.prices.map((p: { assetId: string }) => [p.assetId, p]));
    expect(byId.BTC).toMatchObject({ priceUsd: '65000.00', change24hPct: '2.50' });
    expect(byId.ETH).toMatchObject({ priceUsd: '3000.00', change24hPct: '-1.25' });
    expect(byId['USDT-ERC20'].priceUsd).toBe('1');
    expect(byId['USDT-TRC20'].priceUsd).toBe('1');
    expect(body.audUsd).toEqual({ rate: '0.6543', live: true });
  });

  it('snapshots every good refresh', async () => {
    const before = await t.services.pool.query('SELECT count(*)::int AS n FROM price_snapshots');
    await t.services.pool.query(
      "UPDATE price_snapshots SET taken_at = taken_at - interval '1 minute'",
    );
    await t.services.prices.refresh();
    const after = await t.services.pool.query('SELECT count(*)::int AS n FROM price_snapshots');
    expect(after.rows[0].n - before.rows[0].n).toBe(3); // bitcoin, ethereum, aud-usd
  });

  it('keeps the last good prices, marked cached, when the feed fails or talks nonsense', async () => {
    await t.services.prices.refresh();
    for (const mode of ['fail', 'garbage'] as const) {
      feeds.state.mode = mode;
      feeds.state.tickers.BTCUSDT = { lastPrice: '1.00' };
      const book = await t.services.prices.refresh();
      expect(book.source).toBe('cached');
      expect(book.quotes.BTC.priceUsd).toBe('65000.00');
    }
    feeds.state.tickers.BTCUSDT = { lastPrice: '65000.00', priceChangePercent: '2.50' };
  });

  it('needs both tickers: one failing symbol keeps the old prices', async () => {
    await t.services.prices.refresh();
    const eth = feeds.state.tickers.ETHUSDT;
    delete feeds.state.tickers.ETHUSDT;
    feeds.state.tickers.BTCUSDT = { lastPrice: '70000.00', priceChangePercent: '1.00' };
    const book = await t.services.prices.refresh();
    expect(book.source).toBe('cached');
    expect(book.quotes.BTC.priceUsd).toBe('65000.00');
    feeds.state.tickers.ETHUSDT = eth ?? { lastPrice: '3000.00' };
    feeds.state.tickers.BTCUSDT = { lastPrice: '65000.00', priceChangePercent: '2.50' };
  });

  it('gives up on a slow feed within the timeout instead of hanging', async () => {
    feeds.state.mode = 'slow';
    feeds.state.slowMs = 60_000;
    const started = Date.now();
    const book = await t.services.prices.refresh();
    expect(book.source).not.toBe('live');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('computes the 24 h change from snapshots when the feed gives none', async () => {
    await t.services.pool.query('DELETE FROM price_snapshots');
    await t.services.pool.query(
      "INSERT INTO price_snapshots (price_id, price_usd, taken_at) VALUES ('bitcoin', 50000, now() - interval '25 hours')",
    );
    feeds.state.tickers.BTCUSDT = { lastPrice: '55000' };
    const book = await t.services.prices.refresh();
    expect(book.quotes.BTC.change24hPct).toBe('10.00');
    feeds.state.tickers.BTCUSDT = { lastPrice: '65000.00', priceChangePercent: '2.50' };
  });

  it('keeps the default AUD rate when the exchange-rate service fails', async () => {
    feeds.state.fxMode = 'fail';
    const fresh = await createTestApp({
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
    });
    try {
      const book = await fresh.services.prices.refresh();
      expect(book.audUsd).toEqual({ rate: '0.66', live: false });
      expect(book.source).toBe('live');
    } finally {
      await fresh.close();
    }
  });

  it('requires a verified session', async () => {
    expect((await call(t, { url: '/api/prices' })).statusCode).toBe(401);
  });
});
