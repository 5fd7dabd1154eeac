import { ASSETS, mulPrice, sumUsd, type TAssetId } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { startFakeFeeds } from '@server-test/fake-feeds';
import { call, createTestApp, type TestApp, verifiedCustomer } from '@server-test/helpers';
import { expectReconciled } from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signedUnits } from './wallets-context';

/**
 * The portfolio chart reads hourly sums the ledger keeps instead of every row of its range.
 * Its figures are checked against the computation it replaced: each point's balance is
 * today's balance minus every completed effect dated after the point, summed from the raw
 * rows (a deleted row's effect taken back when it was deleted).
 */

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
afterEach(async () => {
  await expectReconciled(t);
});

const HOUR = 3600_000;
const ADDRESS: Partial<Record<TAssetId, string>> = {
  BTC: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  ETH: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

type Point = { t: string; usd: string };

/** The replaced computation: the effects dated after `at`, per asset, from every row. */
const OLD_EFFECTS_AFTER = `
WITH applied AS (
  SELECT asset_id,
         CASE WHEN direction = 'credit' THEN crypto_amount ELSE -(crypto_amount + fee) END AS delta,
         LEAST(completed_at, transaction_date) AS applied_at, deleted_at
    FROM transactions
   WHERE user_id = $1 AND status = 'completed' AND direction <> 'none' AND wallet_id IS NOT NULL
), events AS (
  SELECT asset_id, delta, applied_at AS at FROM applied
  UNION ALL
  SELECT asset_id, -delta, deleted_at FROM applied WHERE deleted_at IS NOT NULL
)
SELECT asset_id, SUM(delta)::text AS delta FROM events WHERE at > $2 GROUP BY asset_id`;

/** What the replaced computation drew at the chart's own times, at today's prices. */
async function oracle(userId: string, points: Point[]): Promise<string[]> {
  const wallets = (
    await t.services.pool.query<{ asset_id: TAssetId; balance_crypto: string }>(
      'SELECT asset_id, balance_crypto FROM user_wallets WHERE user_id = $1',
      [userId],
    )
  ).rows;
  const prices = t.services.prices.current();
  const out: string[] = [];
  for (const [k, point] of points.entries()) {
    if (k === points.length - 1) break;
    const { rows } = await t.services.pool.query<{ asset_id: TAssetId; delta: string }>(
      OLD_EFFECTS_AFTER,
      [userId, new Date(point.t)],
    );
    const values = wallets.map((w) => {
      const asset = ASSETS[w.asset_id];
      const after = rows.find((r) => r.asset_id === w.asset_id);
      const then =
        signedUnits(w.balance_crypto, asset.decimals) -
        (after ? signedUnits(after.delta, asset.decimals) : 0n);
      return mulPrice(then > 0n ? then : 0n, asset.decimals, prices.quotes[asset.id].priceUsd);
    });
    out.push(sumUsd(values));
  }
  return out;
}

type Client = Parameters<Parameters<typeof withTransaction>[1]>[0];

/** Runs ledger writes on one connection in one transaction (`client` given), or alone. */
const on = <T>(client: Client | undefined, write: (c: Client) => Promise<T>) =>
  client ? write(client) : withTransaction(t.services.pool, write);

const credit = (
  userId: string,
  assetId: TAssetId,
  amount: bigint,
  at: Date,
  opts: { staking?: boolean; client?: Client } = {},
) =>
  on(opts.client, (c) =>
    t.services.ledger.post(c, {
      userId,
      assetId,
      type: opts.staking ? 'staking_reward' : 'deposit',
      direction: 'credit',
      amount,
      status: 'completed',
      createdBy: null,
      transactionDate: at,
    }),
  );

const withdrawal = (
  userId: string,
  assetId: TAssetId,
  amount: bigint,
  fee: bigint,
  at: Date,
  client?: Client,
) =>
  on(client, (c) =>
    t.services.ledger.post(c, {
      userId,
      assetId,
      type: 'withdrawal',
      direction: 'debit',
      amount,
      fee,
      status: 'pending',
      withdrawalAddress: ADDRESS[assetId] ?? null,
      createdBy: userId,
      transactionDate: at,
    }),
  );

const settle = (id: string, status: 'completed' | 'failed', client?: Client) =>
  on(client, (c) =>
    t.services.ledger.changeStatus(c, id, status, {
      transactionHash: status === 'completed' ? 'ab'.repeat(32) : null,
      reason: status === 'failed' ? 'Rejected by staff' : null,
      processedBy: null,
    }),
  );

const remove = (id: string, client?: Client) =>
  on(client, (c) => t.services.ledger.remove(c, id, null));

async function hourly(userId: string, assetId: TAssetId): Promise<Map<number, string>> {
  const { rows } = await t.services.pool.query<{ hour: Date; delta: string }>(
    `SELECT e.hour, e.delta::text FROM wallet_hourly_effects e
       JOIN user_wallets w ON w.id = e.wallet_id WHERE w.user_id = $1 AND w.asset_id = $2`,
    [userId, assetId],
  );
  return new Map(rows.map((r) => [r.hour.getTime(), r.delta]));
}

const hourOf = (at: Date) => Math.floor(at.getTime() / HOUR) * HOUR;

async function chart(cookie: string, range: '24h' | '7d' | '30d' | '1y'): Promise<Point[]> {
  const res = await call(t, { url: `/api/portfolio/history?range=${range}`, cookie });
  expect(res.statusCode).toBe(200);
  return res.json<{ points: Point[] }>().points;
}

describe('the portfolio chart from hourly sums', () => {
  it('draws what summing every row drew, for a varied history over a year', {
    timeout: 120_000,
  }, async () => {
    await t.services.pool.query('DELETE FROM price_snapshots');
    const user = await verifiedCustomer(t);
    const now = Date.now();
    // Written in one transaction (the hourly sums follow each statement all the same).
    await withTransaction(t.services.pool, async (client) => {
      // A sparse year before it: a USDT deposit every 23 days and 5 hours.
      for (let i = 0; i < 14; i++) {
        const at = new Date(now - 360 * 24 * HOUR + i * (23 * 24 * HOUR + 5 * HOUR));
        await credit(user.userId, 'USDT-ERC20', BigInt(3 + i) * 1_000_000n, at, { client });
      }
      // A sparse month: a deposit every 31 hours and 7 minutes, BTC and USDT in turn.
      for (let i = 0; i < 30; i++) {
        const at = new Date(now - 40 * 24 * HOUR + i * (31 * HOUR + 7 * 60_000));
        const assetId = i % 2 ? 'BTC' : 'USDT-ERC20';
        await credit(user.userId, assetId, BigInt(1 + i) * 1_000_000n, at, { client });
      }
      // A dense last ten days: ETH every 47 minutes, so most sub-hour windows hold rows,
      // with staking rewards, deletions and withdrawals paid, rejected and still waiting.
      for (let i = 0; i < 300; i++) {
        const at = new Date(now - 10 * 24 * HOUR + i * 47 * 60_000 + (i % 5) * 1000);
        if (i % 6 === 5) {
          const w = await withdrawal(user.userId, 'ETH', 10n ** 16n, 10n ** 14n, at, client);
          if (i % 18 === 5) await settle(w.id, 'completed', client);
          else if (i % 18 === 11) await settle(w.id, 'failed', client);
        } else {
          const amount = BigInt(i + 1) * 10n ** 15n;
          const row = await credit(user.userId, 'ETH', amount, at, {
            staking: i % 6 === 1,
            client,
          });
          if (i % 25 === 3) await remove(row.id, client);
        }
      }
    });
    // A BTC payout requested three hours ago and paid since.
    const paid = await withdrawal(user.userId, 'BTC', 2_000_000n, 1_000n, new Date(now - 3 * HOUR));
    await settle(paid.id, 'completed');

    for (const range of ['24h', '7d', '30d', '1y'] as const) {
      const points = await chart(user.cookie, range);
      expect(points).toHaveLength(49);
      const expected = await oracle(user.userId, points);
      expect(points.slice(0, 48).map((p) => p.usd)).toEqual(expected);
    }
    // The history is not flat: the chart is not comparing zeros.
    const month = await chart(user.cookie, '30d');
    expect(new Set(month.map((p) => p.usd)).size).toBeGreaterThan(20);
    const year = await chart(user.cookie, '1y');
    expect(new Set(year.slice(0, 40).map((p) => p.usd)).size).toBeGreaterThan(10);
  });

  it('follows a withdrawal paid, one rejected and a deposit deleted, in the hour each counts in', async () => {
    const user = await verifiedCustomer(t);
    const now = Date.now();
    const dayAgo = new Date(now - 30 * HOUR);
    const deposit = await credit(user.userId, 'ETH', 3n * 10n ** 18n, dayAgo);
    await credit(user.userId, 'ETH', 2n * 10n ** 18n, dayAgo);
    expect((await hourly(user.userId, 'ETH')).get(hourOf(dayAgo))).toBe('5.000000000000000000');

    // Requested five hours ago: a hold moves no balance, so no hour changes until it is paid.
    const requested = new Date(now - 5 * HOUR);
    const paid = await withdrawal(user.userId, 'ETH', 10n ** 18n, 10n ** 16n, requested);
    expect((await hourly(user.userId, 'ETH')).has(hourOf(requested))).toBe(false);
    await settle(paid.id, 'completed');
    // Paid now, it counts from its request, as the history dates it.
    expect((await hourly(user.userId, 'ETH')).get(hourOf(requested))).toBe('-1.010000000000000000');

    const rejected = await withdrawal(user.userId, 'ETH', 5n * 10n ** 17n, 0n, requested);
    await settle(rejected.id, 'failed');
    expect((await hourly(user.userId, 'ETH')).get(hourOf(requested))).toBe('-1.010000000000000000');

    // Deleted now: the deposit counted from a day ago until this hour.
    const before = Date.now();
    await remove(deposit.id);
    const after = await hourly(user.userId, 'ETH');
    expect(after.get(hourOf(dayAgo))).toBe('5.000000000000000000');
    const deletedIn = [hourOf(new Date(before)), hourOf(new Date())].map((h) => after.get(h));
    expect(deletedIn).toContain('-3.000000000000000000');

    const points = await chart(user.cookie, '24h');
    expect(points.slice(0, 48).map((p) => p.usd)).toEqual(await oracle(user.userId, points));
    // Every hour together: the 2 ETH that stayed, less the 1.01 paid out.
    const { rows } = await t.services.pool.query<{ total: string }>(
      `SELECT COALESCE(SUM(e.delta), 0)::text AS total FROM wallet_hourly_effects e
         JOIN user_wallets w ON w.id = e.wallet_id WHERE w.user_id = $1 AND w.asset_id = 'ETH'`,
      [user.userId],
    );
    expect(rows[0]?.total).toBe('0.990000000000000000');
  });

  it('adds up parallel credits to one wallet in one hour', async () => {
    const user = await verifiedCustomer(t);
    const at = new Date(Date.now() - 2 * HOUR);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => credit(user.userId, 'BTC', BigInt(i + 1) * 1000n, at)),
    );
    // 1 + 2 + … + 8 thousand satoshi.
    expect((await hourly(user.userId, 'BTC')).get(hourOf(at))).toBe('0.000360000000000000');
    const { rows } = await t.services.pool.query<{ balance_crypto: string }>(
      "SELECT balance_crypto FROM user_wallets WHERE user_id = $1 AND asset_id = 'BTC'",
      [user.userId],
    );
    expect(rows[0]?.balance_crypto).toBe('0.000360000000000000');
  });

  it('has the ledger check name a wallet whose hourly sums no longer add up to its balance', async () => {
    const user = await verifiedCustomer(t);
    await credit(user.userId, 'BTC', 100_000n, new Date(Date.now() - HOUR));
    expect(await t.services.ledger.reconcile(t.services.pool)).toEqual([]);
    await t.services.pool.query(
      `UPDATE wallet_hourly_effects SET delta = delta + 1
        WHERE wallet_id = (SELECT id FROM user_wallets WHERE user_id = $1 AND asset_id = 'BTC')`,
      [user.userId],
    );
    try {
      const mismatches = await t.services.ledger.reconcile(t.services.pool);
      expect(mismatches.map((m) => [m.user_id, m.asset_id, m.hourly_total])).toEqual([
        [user.userId, 'BTC', '1.001000000000000000'],
      ]);
    } finally {
      await t.services.pool.query(
        `UPDATE wallet_hourly_effects SET delta = delta - 1
          WHERE wallet_id = (SELECT id FROM user_wallets WHERE user_id = $1 AND asset_id = 'BTC')`,
        [user.userId],
      );
    }
  });
});
