import { startFakeFeeds } from '@server-test/fake-feeds';
import { createTestApp, type TestApp, verifiedCustomer } from '@server-test/helpers';
import { type Instance, serve, subscribed } from '@server-test/realtime-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let server: Instance;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  server = await serve(t.app, t.services);
});
afterAll(async () => {
  await t.services.listener.stop();
  await t.close();
  await feeds.close();
});

describe('prices on the realtime socket', () => {
  it('tells every customer when the prices move, and says nothing when they stay', async () => {
    const alice = await verifiedCustomer(t);
    const bob = await verifiedCustomer(t);
    const aliceSocket = await subscribed(server.url, alice.cookie);
    const bobSocket = await subscribed(server.url, bob.cookie);

    // The first good refresh replaces the catalogue's prices: a change.
    await t.services.prices.refresh();
    await aliceSocket.next((e) => e.type === 'prices.changed');
    await bobSocket.next((e) => e.type === 'prices.changed');

    // The feed says the same again: no event. Alice's ledger event comes next, alone.
    await t.services.prices.refresh();
    await t.services.realtime.publish(t.services.pool, {
      type: 'ledger.changed',
      userId: alice.userId,
    });
    await aliceSocket.next((e) => e.type === 'ledger.changed');
    expect(aliceSocket.events.map((e) => e.type)).toEqual(['prices.changed', 'ledger.changed']);

    // Bitcoin moves: both hear it once more, and the new price is what the API says.
    feeds.state.tickers.BTCUSDT = { lastPrice: '66000.00', priceChangePercent: '4.00' };
    await t.services.prices.refresh();
    await bobSocket.next(() => bobSocket.events.length === 2);
    expect(bobSocket.events.map((e) => e.type)).toEqual(['prices.changed', 'prices.changed']);
    expect(t.services.prices.current().quotes.BTC.priceUsd).toBe('66000.00');
    aliceSocket.close();
    bobSocket.close();
  });
});
