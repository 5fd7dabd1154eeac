import { MONEY_MSG } from '@coffer/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFeeds } from '../../../test/fake-feeds';
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
} from '../../../test/helpers';
import { fund, GOOD_ADDRESS, requestWithdrawal } from '../../../test/money-helpers';
import { buildApp } from '../../app';
import { createServices } from '../../app-services';
import { createDb, createPool } from '../../db/client';
import { createLogger } from '../../infra';
import { SETTING_DEFAULTS } from '../settings';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  // As the server runs: listening, so the settings cache is really in use.
  await t.services.listener.start();
  admin = await verifiedAdmin(t);
});
afterAll(async () => {
  await t.services.listener.stop();
  await t.close();
  await feeds.close();
});
afterEach(async () => {
  feeds.state.mode = 'ok';
  feeds.state.tickers.BTCUSDT = { lastPrice: '65000.00', priceChangePercent: '2.50' };
  feeds.state.tickers.ETHUSDT = { lastPrice: '3000.00', priceChangePercent: '-1.25' };
  await t.services.pool.query(
    `UPDATE app_settings s SET setting_value = d.value
       FROM unnest($1::text[], $2::text[]) AS d(key, value) WHERE s.setting_key = d.key`,
    [SETTING_DEFAULTS.map((d) => d.key), SETTING_DEFAULTS.map((d) => d.value)],
  );
  await t.services.pool.query("SELECT pg_notify('coffer_settings', '')");
});

const put = (values: Record<string, string>, cookie = admin.cookie) =>
  call(t, { method: 'PUT', url: '/api/admin/settings', cookie, body: { values } });

async function settingsMap(cookie = admin.cookie): Promise<Record<string, string>> {
  const res = await call(t, { url: '/api/admin/settings', cookie });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(
    res.json().settings.map((s: { key: string; value: string }) => [s.key, s.value]),
  );
}

async function auditRows(action: string) {
  const { rows } = await t.services.pool.query(
    `SELECT actor_id, target_type, target_id, before, after, ip FROM audit_log
      WHERE action = $1 ORDER BY id`,
    [action],
  );
  return rows;
}

/** Polls until the condition holds: the other instance hears the announcement asynchronously. */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 150; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met within 3 s');
}

describe('authorization', () => {
  const routes = [
    { method: 'GET', url: '/api/admin/settings' },
    { method: 'PUT', url: '/api/admin/settings', body: { values: { maintenance_mode: 'true' } } },
    { method: 'POST', url: '/api/admin/settings/reset', body: {} },
    { method: 'GET', url: '/api/admin/prices/sync' },
    { method: 'POST', url: '/api/admin/prices/sync', body: {} },
  ] as const;

  it('refuses anonymous callers, customers and admins who have not passed 2FA, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    const halfAdmin = await signUpAndSignIn(t);
    await t.services.users.makeAdmin(halfAdmin.userId);
    for (const route of routes) {
      const send = (cookie?: string) =>
        withoutChange(t, () =>
          call(t, {
            method: route.method,
            url: route.url,
            ...('body' in route ? { body: route.body } : {}),
            ...(cookie ? { cookie } : {}),
          }),
        );
      expect((await send()).statusCode, `${route.method} ${route.url}`).toBe(401);
      expect((await send(customer.cookie)).statusCode, `${route.method} ${route.url}`).toBe(403);
      expect((await send(halfAdmin.cookie)).statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });
});

describe('GET /api/admin/settings', () => {
  it('lists every setting ordered by key, with the defaults of the spec and of Coffer', async () => {
    const res = await call(t, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    const settings = res.json().settings as Array<Record<string, string>>;
    const keys = settings.map((s) => s.key);
    expect(keys).toEqual([...keys].sort());
    const byKey = Object.fromEntries(settings.map((s) => [s.key, s]));
    expect(byKey.deposits_enabled).toMatchObject({ value: 'true', type: 'boolean' });
    expect(byKey.withdrawals_enabled).toMatchObject({ value: 'true', type: 'boolean' });
    expect(byKey.maintenance_mode).toMatchObject({ value: 'false', type: 'boolean' });
    expect(byKey.api_provider).toMatchObject({ value: 'coingecko' });
    expect(byKey.max_daily_withdrawal).toMatchObject({ value: '10000', type: 'number' });
    expect(byKey.staking_daily_rate).toMatchObject({ value: '0.0001', type: 'number' });
    expect(byKey.staking_program_start?.value).toBe('2025-07-10T00:00:00Z');
    for (const key of ['bank_statement_descriptor', 'support_chat_url', 'show_public_stats']) {
      expect(byKey[key], key).toBeDefined();
    }
    expect(Number.isNaN(Date.parse(byKey.deposits_enabled?.updatedAt ?? ''))).toBe(false);
    expect(byKey.deposits_enabled?.description).toBeTruthy();
  });
});

describe('PUT /api/admin/settings', () => {
  it('saves the changed values, stamps updated_at, and writes one audit row with the diff', async () => {
    const before = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'deposits_enabled'",
    );
    const res = await put({
      max_daily_withdrawal: '2500.50',
      api_provider: 'coinmarketcap',
      deposits_enabled: 'true', // unchanged: neither written nor audited
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().changed.sort()).toEqual(['api_provider', 'max_daily_withdrawal']);
    const values = await settingsMap();
    expect(values.max_daily_withdrawal).toBe('2500.50');
    expect(values.api_provider).toBe('coinmarketcap');
    const after = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'deposits_enabled'",
    );
    expect(after.rows[0].updated_at).toEqual(before.rows[0].updated_at);

    const rows = await auditRows('settings.update');
    expect(rows.at(-1)).toEqual({
      actor_id: admin.userId,
      target_type: 'app_settings',
      target_id: 'api_provider,max_daily_withdrawal',
      before: { api_provider: 'coingecko', max_daily_withdrawal: '10000' },
      after: { api_provider: 'coinmarketcap', max_daily_withdrawal: '2500.50' },
      ip: '127.0.0.1',
    });
    expect(await t.services.audit.verify(t.services.pool)).toMatchObject({ ok: true });
  });

  it('writes nothing and no audit row when nothing changes', async () => {
    await withoutChange(t, async () => {
      const res = await put({ withdrawals_enabled: 'true' });
      expect(res.statusCode).toBe(200);
      expect(res.json().changed).toEqual([]);
    });
  });

  const bad: Array<[string, string, string]> = [
    ['withdrawals_enabled', 'yes', 'Withdrawals enabled must be true or false.'],
    ['maintenance_mode', '1', 'Maintenance mode must be true or false.'],
    [
      'max_daily_withdrawal',
      '-5',
      'Maximum daily withdrawal (USD) must be an amount in US dollars of 0 or more, with at most 2 decimals (e.g. 10000).',
    ],
    [
      'max_daily_withdrawal',
      '1e6',
      'Maximum daily withdrawal (USD) must be an amount in US dollars of 0 or more, with at most 2 decimals (e.g. 10000).',
    ],
    [
      'staking_daily_rate',
      '0.65',
      'Staking daily rate must be a daily rate between 0 and 0.01 (1% a day), e.g. 0.0001 for 0.01%.',
    ],
    [
      'staking_daily_rate',
      '-0.001',
      'Staking daily rate must be a daily rate between 0 and 0.01 (1% a day), e.g. 0.0001 for 0.01%.',
    ],
    [
      'staking_program_start',
      'next tuesday',
      'Staking program start must be an ISO date, e.g. 2025-07-10T00:00:00Z.',
    ],
    ['api_provider', 'binance', 'Price data provider must be one of: coingecko, coinmarketcap.'],
    [
      'support_chat_url',
      'javascript:alert(1)',
      'Support chat link must be a web address starting with https://.',
    ],
    ['bank_statement_descriptor', '   ', 'Bank statement descriptor cannot be empty.'],
    [
      'bank_statement_descriptor',
      'X'.repeat(101),
      'Bank statement descriptor must be at most 100 characters.',
    ],
    ['no_such_setting', 'true', 'There is no setting called no_such_setting.'],
  ];

  for (const [key, value, message] of bad) {
    it(`refuses ${key} = ${JSON.stringify(value.slice(0, 20))} and saves nothing of the request`, async () => {
      const res = await withoutChange(t, () =>
        // A good value beside the bad one is not saved either.
        put({ [key]: value, ...(key === 'maintenance_mode' ? {} : { maintenance_mode: 'true' }) }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
    });
  }

  it('refuses an empty change set', async () => {
    const res = await withoutChange(t, () => put({}));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Change at least one setting before saving.');
  });

  it('takes effect for customers at once: withdrawals off refuses the next withdrawal', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    // Read once so the cache holds "on".
    const open = await call(t, { url: '/api/money/status', cookie: customer.cookie });
    expect(open.json().withdrawalsEnabled).toBe(true);

    expect((await put({ withdrawals_enabled: 'false' })).statusCode).toBe(200);
    const refused = await requestWithdrawal(t, customer, {
      assetId: 'BTC',
      amount: '0.1',
      address: GOOD_ADDRESS.BTC,
    });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toEqual({
      error: 'SERVICE_DISABLED',
      message: MONEY_MSG.withdrawalsDisabled,
    });

    expect((await put({ withdrawals_enabled: 'true' })).statusCode).toBe(200);
    const ok = await requestWithdrawal(t, customer, {
      assetId: 'BTC',
      amount: '0.1',
      address: GOOD_ADDRESS.BTC,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('a change on one server instance is seen by another on the same database', async () => {
    const pool = createPool(t.databaseUrl);
    const services = createServices({
      config: t.services.config,
      pool,
      db: createDb(pool),
      secrets: t.services.secrets,
      mailer: t.services.mailer,
      log: createLogger('silent'),
    });
    await services.listener.start();
    const app = await buildApp(services, { logger: false, serveWeb: false });
    await app.ready();
    const other: TestApp = { ...t, app, services };
    try {
      const customer = await verifiedCustomer(t);
      const status = async () =>
        (await call(other, { url: '/api/money/status', cookie: customer.cookie })).json();
      expect((await status()).maintenanceMode).toBe(false); // cached on the other instance now
      expect((await put({ maintenance_mode: 'true' })).statusCode).toBe(200);
      await until(async () => (await status()).maintenanceMode === true);
    } finally {
      await services.listener.stop();
      await app.close();
      await pool.end();
    }
  });

  it('a staking rate change applies from now on and never reprices accrual already earned', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'ETH', '10');
    const state = () =>
      t.services.pool
        .query(
          `SELECT accrued_pending::text AS pending, last_checkpoint_at, daily_rate::text AS rate
             FROM user_staking WHERE user_id = $1`,
          [customer.userId],
        )
        .then((r) => r.rows[0]);
    // The checkpoint a week ago, at the old rate, with accrual earned since then pending.
    await t.services.pool.query(
      `UPDATE user_staking SET last_checkpoint_at = now() - interval '7 days',
              accrued_pending = 0.5 WHERE user_id = $1`,
      [customer.userId],
    );
    const before = await state();
    expect(Number(before.rate)).toBe(0.0001);

    expect((await put({ staking_daily_rate: '0.0002' })).statusCode).toBe(200);
    // The save touched no staking row: the week at the old rate is still to be counted at it.
    expect(await state()).toEqual(before);
    const { rows } = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'staking_daily_rate'",
    );
    expect(rows[0].updated_at.getTime()).toBeGreaterThan(before.last_checkpoint_at.getTime());

    // The next checkpoint (a deposit) counts the week at 0.0001 and then accrues at 0.0002.
    await fund(t, customer.userId, 'ETH', '1');
    const after = await state();
    expect(Number(after.rate)).toBe(0.0002);
    const week = 10 * 0.0001 * 7;
    expect(Number(after.pending) - 0.5).toBeGreaterThanOrEqual(week);
    expect(Number(after.pending) - 0.5).toBeLessThan(week * 1.001);
  });
});

describe('POST /api/admin/settings/reset', () => {
  it('puts every setting back to its default in one audited change', async () => {
    expect(
      (
        await put({
          withdrawals_enabled: 'false',
          max_daily_withdrawal: '5',
          show_public_stats: 'false',
        })
      ).statusCode,
    ).toBe(200);
    const res = await call(t, {
      method: 'POST',
      url: '/api/admin/settings/reset',
      cookie: admin.cookie,
      body: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().changed.sort()).toEqual([
      'max_daily_withdrawal',
      'show_public_stats',
      'withdrawals_enabled',
    ]);
    const values = await settingsMap();
    for (const d of SETTING_DEFAULTS) expect(values[d.key], d.key).toBe(d.value);
    const row = (await auditRows('settings.reset')).at(-1);
    expect(row.before).toEqual({
      max_daily_withdrawal: '5',
      show_public_stats: 'false',
      withdrawals_enabled: 'false',
    });
    expect(row.after).toEqual({
      max_daily_withdrawal: '10000',
      show_public_stats: 'true',
      withdrawals_enabled: 'true',
    });
  });
});

describe('price sync', () => {
  const sync = () =>
    call(t, { method: 'POST', url: '/api/admin/prices/sync', cookie: admin.cookie, body: {} });

  async function fiatOf(userId: string) {
    const { rows } = await t.services.pool.query<{ asset_id: string; fiat: string }>(
      'SELECT asset_id, balance_fiat::text AS fiat FROM user_wallets WHERE user_id = $1',
      [userId],
    );
    return Object.fromEntries(rows.map((r) => [r.asset_id, r.fiat]));
  }

  it('revalues every wallet at the live prices, answers them, and audits the sync', async () => {
    const a = await verifiedCustomer(t);
    const b = await verifiedCustomer(t);
    await fund(t, a.userId, 'BTC', '0.5');
    await fund(t, a.userId, 'USDT-TRC20', '12.345678');
    await fund(t, b.userId, 'ETH', '2.000000000000000001');
    feeds.state.tickers.BTCUSDT = { lastPrice: '70000.10' };
    feeds.state.tickers.ETHUSDT = { lastPrice: '3500.005' };

    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'All wallet balances synced with current market prices',
      error: null,
      prices: { BTC: '70000.10', ETH: '3500.005', USDT: '1' },
      source: 'live',
    });
    expect(res.json().walletsUpdated).toBeGreaterThanOrEqual(3);
    expect(await fiatOf(a.userId)).toMatchObject({
      BTC: '35000.05',
      'USDT-TRC20': '12.35',
      ETH: '0.00',
    });
    expect((await fiatOf(b.userId)).ETH).toBe('7000.01');

    const row = (await auditRows('prices.sync')).at(-1);
    expect(row).toMatchObject({ actor_id: admin.userId, target_type: 'user_wallets' });
    expect(row.after.prices).toEqual({ BTC: '70000.10', ETH: '3500.005', USDT: '1' });
    const snapshots = await t.services.pool.query(
      "SELECT price_usd::text AS p FROM price_snapshots WHERE price_id = 'bitcoin' ORDER BY taken_at DESC LIMIT 1",
    );
    expect(Number(snapshots.rows[0].p)).toBe(70000.1);

    const status = await call(t, { url: '/api/admin/prices/sync', cookie: admin.cookie });
    expect(status.json().lastSync).toMatchObject({
      actorEmail: admin.email,
      prices: { BTC: '70000.10', ETH: '3500.005', USDT: '1' },
    });
    expect(status.json().current.source).toBe('live');
  });

  it('answers success false when the feed fails, and changes no wallet', async () => {
    const c = await verifiedCustomer(t);
    await fund(t, c.userId, 'BTC', '1');
    expect((await sync()).json().success).toBe(true);
    const valued = await fiatOf(c.userId);
    const auditCount = (await auditRows('prices.sync')).length;

    feeds.state.mode = 'fail';
    feeds.state.tickers.BTCUSDT = { lastPrice: '1.00' };
    const res = await sync();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.message).toBe('Failed to sync wallet prices');
    expect(body.error).toMatch(/price feed did not answer/);
    expect(body.source).toBe('cached');
    expect(body.walletsUpdated).toBe(0);
    expect(await fiatOf(c.userId)).toEqual(valued);
    expect((await auditRows('prices.sync')).length).toBe(auditCount);
  });
});
