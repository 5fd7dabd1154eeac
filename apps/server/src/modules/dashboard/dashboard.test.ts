import { DASHBOARD_CHART_RANGE, type TStakingResponse, ZDashboardResponse } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { fund, setSetting } from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});

async function read(url: string, cookie: string) {
  const res = await call(t, { url, cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Staking figures without the two that move with the clock between two reads. */
function steady({ asOf: _asOf, pendingAccrued: _pending, ...rest }: TStakingResponse) {
  return rest;
}

/** A BTC deposit dated three days ago, so the chart's week has a step in it. */
function depositDaysAgo(userId: string, days: number) {
  return withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      userId,
      assetId: 'BTC',
      type: 'deposit',
      direction: 'credit',
      amount: 50_000_000n,
      status: 'completed',
      createdBy: null,
      transactionDate: new Date(Date.now() - days * 86_400_000),
    }),
  );
}

describe('GET /api/dashboard', () => {
  it('refuses a visitor who is not signed in, and changes nothing', async () => {
    const res = await withoutChange(t, () => call(t, { url: '/api/dashboard' }));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).error).toBe('UNAUTHENTICATED');
  });

  it('refuses a session that has not passed its second factor', async () => {
    const half: SignedInUser = await signUpAndSignIn(t);
    const res = await withoutChange(t, () =>
      call(t, { url: '/api/dashboard', cookie: half.cookie }),
    );
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).error).toBe('TWO_FACTOR_REQUIRED');
  });

  it('answers with exactly what the separate reads say', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '2');
    await fund(t, user.userId, 'USDT-ERC20', '250');
    await depositDaysAgo(user.userId, 3);
    await setSetting(t, 'support_chat_url', 'https://chat.example.com/coffer');

    const res = await call(t, { url: '/api/dashboard', cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const dashboard = ZDashboardResponse.parse(res.json());

    const [wallets, prices, staking, status, history, info, firstRun] = await Promise.all([
      read('/api/wallets', user.cookie),
      read('/api/prices', user.cookie),
      read('/api/staking', user.cookie),
      read('/api/money/status', user.cookie),
      read(`/api/portfolio/history?range=${DASHBOARD_CHART_RANGE}`, user.cookie),
      read('/api/public/info', user.cookie),
      read('/api/first-run', user.cookie),
    ]);
    expect(dashboard.wallets).toEqual(wallets);
    // BTC 0.5 at 65,000, ETH 2 at 3,000 and 250 USDT: what the portfolio card shows.
    expect(dashboard.wallets.totalUsd).toBe('38750.00');
    expect(dashboard.prices).toEqual(prices);
    expect(steady(dashboard.staking)).toEqual(steady(staking));
    expect(dashboard.staking.ethBalance).toBe('2');
    expect(dashboard.moneyStatus).toEqual(status);
    expect(dashboard.publicInfo).toEqual(info);
    expect(dashboard.publicInfo.supportChatUrl).toBe('https://chat.example.com/coffer');
    expect(dashboard.firstRun).toEqual(firstRun);
    expect(dashboard.firstRun.deposited).toBe(true);

    // The chart's default week: same points, same values, the deposit's step included.
    expect(dashboard.portfolioHistory.range).toBe('7d');
    expect(dashboard.portfolioHistory.points.map((p) => p.usd)).toEqual(
      history.points.map((p: { usd: string }) => p.usd),
    );
    const values = dashboard.portfolioHistory.points.map((p) => p.usd);
    expect(values.at(-1)).toBe('38750.00');
    expect(values).toContain('32500.00'); // before the BTC deposit: ETH and USDT only
  });

  it('shows each customer only their own figures', async () => {
    const rich = await verifiedCustomer(t);
    await fund(t, rich.userId, 'BTC', '3');
    const other = await verifiedCustomer(t);
    const body = ZDashboardResponse.parse(await read('/api/dashboard', other.cookie));
    expect(body.wallets.totalUsd).toBe('0.00');
    expect(body.wallets.wallets.every((w) => w.balance === '0')).toBe(true);
    expect(body.staking.ethBalance).toBe('0');
    expect(body.firstRun.deposited).toBe(false);
  });

  it('gives staff the same read (their page leaves the checklist out)', async () => {
    const admin = await verifiedAdmin(t);
    const body = ZDashboardResponse.parse(await read('/api/dashboard', admin.cookie));
    expect(body.firstRun).toEqual(await read('/api/first-run', admin.cookie));
    expect(body.wallets.wallets).toHaveLength(4);
  });
});
