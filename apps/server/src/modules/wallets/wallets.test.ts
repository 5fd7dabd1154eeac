import { withTransaction } from '@server/db/tx';
import { startFakeFeeds } from '@server-test/fake-feeds';
import { call, createTestApp, type TestApp, verifiedCustomer } from '@server-test/helpers';
import { expectReconciled, fund, requestWithdrawal } from '@server-test/money-helpers';
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
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

type Wallet = { assetId: string; balance: string; usdValue: string; change24hPct: string | null };

/** A completed credit dated `at` (a deposit, or a staking reward). */
function creditAt(
  userId: string,
  assetId: 'BTC' | 'ETH',
  amount: bigint,
  at: Date,
  type: 'deposit' | 'staking_reward' = 'deposit',
) {
  return withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      userId,
      assetId,
      type,
      direction: 'credit',
      amount,
      status: 'completed',
      createdBy: null,
      transactionDate: at,
    }),
  );
}

describe('GET /api/wallets', () => {
  // Runs first: no feed has been asked yet.
  it('values balances at the catalogue prices, saying so, before any feed answered', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    await fund(t, user.userId, 'USDT-TRC20', '10');
    const body = (await call(t, { url: '/api/wallets', cookie: user.cookie })).json();
    expect(body.priceSource).toBe('fallback');
    expect(body.priceMessage).toBe('Failed to fetch live prices, using cached data');
    expect(body.wallets[0]).toMatchObject({
      assetId: 'BTC',
      usdValue: '42069.00',
      priceUsd: '42069',
      change24hPct: null,
    });
    expect(body.wallets[3]).toMatchObject({
      assetId: 'USDT-TRC20',
      usdValue: '10.00',
      change24hPct: '0.00',
    });
    expect(body.totalUsd).toBe('42079.00');
    // A catalogue price is no price: no change is claimed against it (product.md M3).
    expect(body.change24hPct).toBeNull();
  });

  it('lists the four wallets in catalogue order, valued at live prices, with the real 24 h change', async () => {
    await t.services.prices.refresh(); // BTC 65,000 (+2.50 %), ETH 3,000 (−1.25 %), USDT 1
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    await fund(t, user.userId, 'ETH', '10');
    await fund(t, user.userId, 'USDT-ERC20', '100');
    const res = await call(t, { url: '/api/wallets', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(
      body.wallets.map((w: Wallet) => [w.assetId, w.balance, w.usdValue, w.change24hPct]),
    ).toEqual([
      ['BTC', '1', '65000.00', '2.50'],
      ['ETH', '10', '30000.00', '-1.25'],
      ['USDT-ERC20', '100', '100.00', '0.00'],
      ['USDT-TRC20', '0', '0.00', '0.00'],
    ]);
    expect(body.wallets[1]).toMatchObject({
      symbol: 'ETH',
      name: 'Ethereum',
      network: 'ethereum',
      decimals: 18,
      held: '0',
      available: '10',
      priceUsd: '3000.00',
      balanceFiat: '0.00',
    });
    expect(body.totalUsd).toBe('95100.00');
    // Value now 95,100 against 65,000/1.025 + 30,000/0.9875 + 100 = 93,894.38… 24 h ago.
    expect(body.change24hPct).toBe('1.28');
    expect(body.priceSource).toBe('live');
    expect(body.priceMessage).toBeNull();
    await expectReconciled(t);
  });

  it('counts credited staking rewards, which are ETH balance, in the total', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    await creditAt(user.userId, 'ETH', 10n ** 16n, new Date(), 'staking_reward'); // 0.01 ETH
    const body = (await call(t, { url: '/api/wallets', cookie: user.cookie })).json();
    expect(body.wallets[1]).toMatchObject({ balance: '1.01', usdValue: '3030.00' });
    expect(body.totalUsd).toBe('3030.00');
  });

  it('has no change to claim for an empty portfolio, and shows each customer only their own', async () => {
    const rich = await verifiedCustomer(t);
    await fund(t, rich.userId, 'BTC', '5');
    const empty = await verifiedCustomer(t);
    const body = (await call(t, { url: '/api/wallets', cookie: empty.cookie })).json();
    expect(body.totalUsd).toBe('0.00');
    expect(body.change24hPct).toBeNull();
    const { rows } = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM user_wallets WHERE user_id = $1',
      [rich.userId],
    );
    const shown = body.wallets.map((w: { id: string }) => w.id);
    for (const r of rows) expect(shown).not.toContain(r.id);
  });

  it('takes the 24 h change from stored snapshots when the prices are cached without one', async () => {
    // A restarted server: cached prices from the snapshots, no feed yet.
    const restarted = await createTestApp({
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
    });
    try {
      await restarted.services.pool.query('DELETE FROM price_snapshots');
      await restarted.services.pool.query(
        `INSERT INTO price_snapshots (price_id, price_usd, taken_at) VALUES
           ('bitcoin', 50000, now() - interval '25 hours'), ('ethereum', 2000, now() - interval '25 hours'),
           ('bitcoin', 55000, now() - interval '1 minute'), ('ethereum', 2500, now() - interval '1 minute')`,
      );
      await restarted.services.prices.loadCached();
      const user = await verifiedCustomer(restarted);
      await fund(restarted, user.userId, 'BTC', '1');
      await fund(restarted, user.userId, 'ETH', '2');
      const body = (await call(restarted, { url: '/api/wallets', cookie: user.cookie })).json();
      expect(body.priceSource).toBe('cached');
      expect(body.wallets[0]).toMatchObject({ usdValue: '55000.00', change24hPct: '10.00' });
      expect(body.wallets[1]).toMatchObject({ usdValue: '5000.00', change24hPct: '25.00' });
      // 60,000 now against 54,000 at the prices of 24 h ago.
      expect(body.change24hPct).toBe('11.11');
      await expectReconciled(restarted);
    } finally {
      await restarted.close();
    }
  });
});

describe('GET /api/portfolio/history', () => {
  it('draws 49 points: past balances from the ledger at the snapshot prices of the time', async () => {
    const user = await verifiedCustomer(t);
    const hour = 3600_000;
    const now = Date.now();
    await creditAt(user.userId, 'BTC', 100_000_000n, new Date(now - 3 * 24 * hour)); // 1 BTC, 3 days ago
    await creditAt(user.userId, 'BTC', 50_000_000n, new Date(now - 12 * hour)); // 0.5 BTC, 12 h ago
    await fund(t, user.userId, 'USDT-ERC20', '100'); // now
    await t.services.pool.query('DELETE FROM price_snapshots');
    await t.services.pool.query(
      `INSERT INTO price_snapshots (price_id, price_usd, taken_at) VALUES
         ('bitcoin', 40000, now() - interval '30 hours'), ('bitcoin', 60000, now() - interval '6 hours')`,
    );

    const res = await call(t, { url: '/api/portfolio/history?range=24h', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    const { range, points } = res.json();
    expect(range).toBe('24h');
    expect(points).toHaveLength(49);
    const times = points.map((p: { t: string }) => Date.parse(p.t));
    expect(times.at(-1) - times[0]).toBe(24 * hour);
    expect(times[1] - times[0]).toBe(30 * 60_000);
    // 24 h ago: 1 BTC at 40,000. 8 h ago: 1.5 BTC at 40,000. 5 h ago: 1.5 BTC at 60,000.
    expect(points[0].usd).toBe('40000.00');
    expect(points[32].usd).toBe('60000.00');
    expect(points[38].usd).toBe('90000.00');
    // Now: the dashboard's figure, live prices and the USDT that just arrived.
    expect(points[48].usd).toBe('97600.00');
    const wallets = (await call(t, { url: '/api/wallets', cookie: user.cookie })).json();
    expect(points[48].usd).toBe(wallets.totalUsd);

    const week = (
      await call(t, { url: '/api/portfolio/history?range=7d', cookie: user.cookie })
    ).json();
    expect(week.points).toHaveLength(49);
    // A week ago nothing had arrived yet.
    expect(week.points[0].usd).toBe('0.00');
    await expectReconciled(t);
  });

  it('follows withdrawals and deleted rows, and falls back to today’s price without snapshots', async () => {
    await t.services.pool.query('DELETE FROM price_snapshots');
    const user = await verifiedCustomer(t);
    const now = Date.now();
    await creditAt(user.userId, 'ETH', 2n * 10n ** 18n, new Date(now - 20 * 3600_000)); // 2 ETH, 20 h ago
    // A row staff later deleted: it counted from 10 h ago until its deletion 2 h ago.
    const removed = await creditAt(user.userId, 'ETH', 10n ** 18n, new Date(now - 10 * 3600_000));
    await withTransaction(t.services.pool, async (client) => {
      await client.query(
        "UPDATE transactions SET deleted_at = now() - interval '2 hours' WHERE id = $1",
        [removed.id],
      );
      await client.query(
        "UPDATE user_wallets SET balance_crypto = balance_crypto - 1 WHERE user_id = $1 AND asset_id = 'ETH'",
        [user.userId],
      );
    });
    // 0.5 ETH (+ 0.002 fee) requested 4 h ago and paid out since; and one still pending.
    const paid = await withTransaction(t.services.pool, (client) =>
      t.services.ledger.post(client, {
        userId: user.userId,
        assetId: 'ETH',
        type: 'withdrawal',
        direction: 'debit',
        amount: 5n * 10n ** 17n,
        fee: 2n * 10n ** 15n,
        status: 'pending',
        withdrawalAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        createdBy: user.userId,
        transactionDate: new Date(now - 4 * 3600_000),
      }),
    );
    await t.services.withdrawals.complete(paid.id, {
      transactionHash: 'c3'.repeat(32),
      processedBy: user.userId,
    });
    const waiting = await requestWithdrawal(t, user, {
      assetId: 'ETH',
      amount: '0.1',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(waiting.statusCode).toBe(200);

    const { points } = (
      await call(t, { url: '/api/portfolio/history?range=24h', cookie: user.cookie })
    ).json();
    // 3,000 USD an ETH (today's price) throughout.
    expect(points[0].usd).toBe('0.00'); // 24 h ago
    expect(points[8].usd).toBe('6000.00'); // 20 h ago: the 2 ETH arrived at exactly this point
    expect(points[30].usd).toBe('9000.00'); // 9 h ago: 3 ETH
    expect(points[42].usd).toBe('7494.00'); // 3 h ago: 2.498 ETH after the withdrawal
    expect(points[46].usd).toBe('4494.00'); // 1 h ago: the deleted row no longer counts
    // Now: a pending withdrawal is still the customer's ETH (held, not gone).
    expect(points[48].usd).toBe('4494.00');
    await expectReconciled(t);
  });

  it('refuses an unknown range', async () => {
    const user = await verifiedCustomer(t);
    for (const range of ['2y', '1Y', '', '30d ', '%00']) {
      const res = await call(t, {
        url: `/api/portfolio/history?range=${encodeURIComponent(range)}`,
        cookie: user.cookie,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});
