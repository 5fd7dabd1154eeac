import { MONEY_MSG, SETTINGS_MSG, STAFF_MSG, STEP_UP_MSG } from '@coffer/shared';
import { buildApp } from '@server/app';
import { createServices } from '@server/app-services';
import { createDb, createPool } from '@server/db/client';
import { createLogger } from '@server/infra';
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
import {
  fund,
  GOOD_ADDRESS,
  requestWithdrawal,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { approveChange } from '@server-test/settings-helpers';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '../settings';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let admin: SignedInUser;
/** Other admins: the second pair of eyes. */
let admin2: SignedInUser;
let admin3: SignedInUser;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  // As the server runs: listening, so the settings cache is really in use.
  await t.services.listener.start();
  admin = await verifiedAdmin(t);
  admin2 = await verifiedAdmin(t);
  admin3 = await verifiedAdmin(t);
});
// Every save carries a fresh second factor: spare backup codes, topped up outside the calls.
beforeEach(async () => {
  for (const a of [admin, admin2, admin3]) await spareStepUps(t, a);
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
  await t.services.pool.query(
    "DELETE FROM staff_changes WHERE kind = 'setting' AND status = 'pending'",
  );
  await t.services.pool.query("SELECT pg_notify('coffer_settings', '')");
});

/** A save as `by`; `proof` replaces the fresh second factor (`{}`: none at all). */
const put = (
  values: Record<string, string>,
  by = admin,
  proof: { stepUp?: unknown } = { stepUp: stepUpFor(by) },
) =>
  call(t, {
    method: 'PUT',
    url: '/api/admin/settings',
    cookie: by.cookie,
    body: { values, ...proof },
  });

const decide = (
  id: string,
  decision: 'approve' | 'reject',
  by: SignedInUser,
  proof: { stepUp?: unknown } = { stepUp: stepUpFor(by) },
) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/settings/changes/${id}/${decision}`,
    cookie: by.cookie,
    body: proof,
  });

async function pendingChanges(cookie = admin.cookie) {
  const res = await call(t, { url: '/api/admin/settings', cookie });
  expect(res.statusCode).toBe(200);
  return res.json().pending as Array<{
    id: string;
    key: string;
    value: string;
    proposedBy: { id: string; email: string };
    proposedAt: string;
  }>;
}

async function changeStatus(id: string) {
  const { rows } = await t.services.pool.query(
    'SELECT status, decided_by FROM staff_changes WHERE id = $1',
    [id],
  );
  return rows[0];
}

/** Proposes `values` as `by` and approves every proposal as `approver`: the values applied. */
async function proposeAndApprove(
  values: Record<string, string>,
  by = admin,
  approver = admin2,
): Promise<void> {
  const res = await put(values, by);
  expect(res.statusCode, res.body).toBe(202);
  for (const p of res.json().pending as Array<{ id: string }>) {
    const approved = await decide(p.id, 'approve', approver);
    expect(approved.statusCode, approved.body).toBe(200);
  }
}

/** Counts the settings announcements on a connection of its own, as another instance hears them. */
async function announcements() {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  let heard = 0;
  client.on('notification', (n) => {
    if (n.channel === 'coffer_settings') heard++;
  });
  await client.query('LISTEN coffer_settings');
  return { heard: () => heard, close: () => client.end() };
}

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
    {
      method: 'PUT',
      url: '/api/admin/settings',
      body: { values: { maintenance_mode: 'true' }, stepUp: { code: '123456' } },
    },
    { method: 'POST', url: '/api/admin/settings/reset', body: { stepUp: { code: '123456' } } },
    {
      method: 'POST',
      url: '/api/admin/settings/changes/00000000-0000-4000-8000-000000000000/approve',
      body: { stepUp: { code: '123456' } },
    },
    {
      method: 'POST',
      url: '/api/admin/settings/changes/00000000-0000-4000-8000-000000000000/reject',
      body: { stepUp: { code: '123456' } },
    },
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
    expect(byKey.security_hold_hours).toMatchObject({ value: '48', type: 'number' });
    expect(res.json().pending).toEqual([]);
  });
});

describe('PUT /api/admin/settings', () => {
  it('proposes each changed value (202), each audited, applied only when another staff member approves', async () => {
    const before = await settingsMap();
    const stamped = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'deposits_enabled'",
    );
    const res = await put({
      staking_daily_rate: '0.00015',
      api_provider: 'coinmarketcap',
      deposits_enabled: 'true', // unchanged: neither proposed nor audited
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().changed).toEqual([]);
    const pending = res.json().pending as Array<{ id: string; key: string; value: string }>;
    expect(pending.map((p) => [p.key, p.value])).toEqual([
      ['api_provider', 'coinmarketcap'],
      ['staking_daily_rate', '0.00015'],
    ]);
    expect(await settingsMap()).toEqual(before);
    const proposals = (await auditRows('change.propose')).slice(-2);
    expect(proposals).toEqual(
      pending.map((p) => ({
        actor_id: admin.userId,
        target_type: 'staff_change',
        target_id: p.id,
        before: { [p.key]: before[p.key] },
        after: { kind: 'setting', [p.key]: p.value },
        ip: '127.0.0.1',
      })),
    );

    for (const p of pending) expect((await decide(p.id, 'approve', admin2)).statusCode).toBe(200);
    const values = await settingsMap();
    expect(values.staking_daily_rate).toBe('0.00015');
    expect(values.api_provider).toBe('coinmarketcap');
    const after = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'deposits_enabled'",
    );
    expect(after.rows[0].updated_at).toEqual(stamped.rows[0].updated_at);
    expect((await auditRows('settings.approve')).slice(-2)).toEqual(
      pending.map((p) => ({
        actor_id: admin2.userId,
        target_type: 'staff_change',
        target_id: p.id,
        before: { [p.key]: before[p.key] },
        after: { [p.key]: p.value, proposedBy: admin.userId },
        ip: '127.0.0.1',
      })),
    );
    expect(await t.services.audit.verify(t.services.pool)).toMatchObject({ ok: true });
  });

  it('writes nothing and no audit row when nothing changes, and spends no second factor', async () => {
    await withoutChange(t, async () => {
      const res = await put({ withdrawals_enabled: 'true', security_hold_hours: '48' });
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
    [
      'security_hold_hours',
      '0',
      'Security hold (hours) must be a whole number of hours from 24 to 720.',
    ],
    [
      'security_hold_hours',
      '23',
      'Security hold (hours) must be a whole number of hours from 24 to 720.',
    ],
    [
      'security_hold_hours',
      '24.5',
      'Security hold (hours) must be a whole number of hours from 24 to 720.',
    ],
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

    // Pulling a money stop is one staff member, at once.
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

    // Back on is a change another staff member approves.
    const proposed = await put({ withdrawals_enabled: 'true' });
    expect(proposed.statusCode).toBe(202);
    expect((await approveChange(t, admin2, proposed.json().pending[0].id)).statusCode).toBe(200);
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

    await proposeAndApprove({ staking_daily_rate: '0.0002' });
    // The approval touched no staking row: the week at the old rate is still to be counted at it.
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
  const reset = (by = admin, proof: { stepUp?: unknown } = { stepUp: stepUpFor(by) }) =>
    call(t, { method: 'POST', url: '/api/admin/settings/reset', cookie: by.cookie, body: proof });

  it('proposes every default that differs, each audited; applied when another staff member approves', async () => {
    // Withdrawals off applies at once; the other two are approved by a second staff member.
    const first = await put({
      withdrawals_enabled: 'false',
      max_daily_withdrawal: '5',
      show_public_stats: 'false',
    });
    expect(first.statusCode).toBe(202);
    expect(first.json().changed).toEqual(['withdrawals_enabled']);
    for (const p of first.json().pending as Array<{ id: string }>) {
      expect((await approveChange(t, admin2, p.id)).statusCode).toBe(200);
    }
    const changed = {
      withdrawals_enabled: 'false',
      max_daily_withdrawal: '5',
      show_public_stats: 'false',
    };
    expect(await settingsMap()).toMatchObject(changed);

    const refused = await withoutChange(t, () => reset(admin, {}));
    expect(refused.statusCode).toBe(400);

    const resets = (await auditRows('settings.reset')).length;
    const res = await reset();
    expect(res.statusCode).toBe(202);
    // Withdrawals back on is no money stop: it waits like the rest.
    expect(res.json().changed).toEqual([]);
    const pending = res.json().pending as Array<{ id: string; key: string; value: string }>;
    expect(pending.map((p) => [p.key, p.value])).toEqual([
      ['max_daily_withdrawal', '10000'],
      ['show_public_stats', 'true'],
      ['withdrawals_enabled', 'true'],
    ]);
    expect(await settingsMap()).toMatchObject(changed);
    expect((await auditRows('settings.reset')).length).toBe(resets);
    expect((await auditRows('change.propose')).slice(-3).map((r) => r.target_id)).toEqual(
      pending.map((p) => p.id),
    );

    for (const p of pending) expect((await approveChange(t, admin2, p.id)).statusCode).toBe(200);
    const values = await settingsMap();
    for (const d of SETTING_DEFAULTS) expect(values[d.key], d.key).toBe(d.value);
  });

  it('with every setting at its default, a reset changes nothing and spends no second factor', async () => {
    const res = await withoutChange(t, () => reset());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ changed: [], pending: [] });
  });
});

describe('two people for every setting but a money stop', () => {
  it('a setting is proposed (202), unchanged until another staff member approves it, then applied and announced', async () => {
    const ears = await announcements();
    try {
      const before = await settingsMap();
      const res = await put({ security_hold_hours: '72' });
      expect(res.statusCode).toBe(202);
      const [change] = res.json().pending;
      expect(res.json().pending).toHaveLength(1);
      expect(change).toMatchObject({
        key: 'security_hold_hours',
        value: '72',
        proposedBy: { id: admin.userId, email: admin.email },
      });
      expect(Number.isNaN(Date.parse(change.proposedAt))).toBe(false);
      expect(res.json().changed).toEqual([]);
      expect(await settingsMap()).toEqual(before);
      expect((await t.services.settings.all()).get('security_hold_hours')).toBe('48');
      // Every staff member sees it waiting, with who proposed it, here and with every change.
      expect(await pendingChanges(admin2.cookie)).toEqual([change]);
      const changes = await call(t, { url: '/api/admin/changes', cookie: admin2.cookie });
      expect(changes.json().changes).toContainEqual(
        expect.objectContaining({ id: change.id, kind: 'setting', status: 'pending' }),
      );
      expect((await auditRows('change.propose')).at(-1)).toEqual({
        actor_id: admin.userId,
        target_type: 'staff_change',
        target_id: change.id,
        before: { security_hold_hours: '48' },
        after: { kind: 'setting', security_hold_hours: '72' },
        ip: '127.0.0.1',
      });

      const heardBefore = ears.heard();
      const approved = await decide(change.id, 'approve', admin2);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().pending).toEqual([]);
      expect((await settingsMap()).security_hold_hours).toBe('72');
      expect((await t.services.settings.all()).get('security_hold_hours')).toBe('72');
      await until(async () => ears.heard() > heardBefore);
      expect(await changeStatus(change.id)).toEqual({
        status: 'approved',
        decided_by: admin2.userId,
      });
      expect((await auditRows('settings.approve')).at(-1)).toEqual({
        actor_id: admin2.userId,
        target_type: 'staff_change',
        target_id: change.id,
        before: { security_hold_hours: '48' },
        after: { security_hold_hours: '72', proposedBy: admin.userId },
        ip: '127.0.0.1',
      });
      expect(await t.services.audit.verify(t.services.pool)).toMatchObject({ ok: true });
    } finally {
      await ears.close();
    }
  });

  it('every kind of setting waits: limits, confirmations, links, texts, timeouts', async () => {
    const values = {
      api_provider: 'coinmarketcap',
      confirmations_btc: '6',
      confirmations_eth: '20',
      explorer_tx_url_btc: 'https://blockstream.info/tx/{hash}',
      explorer_tx_url_eth: '',
      max_daily_withdrawal: '500',
      security_contact: 'security@wallet.example.org',
      session_idle_minutes_customer: '10',
      show_public_stats: 'false',
      support_chat_url: 'https://chat.example.org',
    };
    const before = await settingsMap();
    const res = await put(values);
    expect(res.statusCode).toBe(202);
    expect(res.json().changed).toEqual([]);
    const pending = res.json().pending as Array<{ id: string; key: string; value: string }>;
    expect(Object.fromEntries(pending.map((p) => [p.key, p.value]))).toEqual(values);
    expect(await settingsMap()).toEqual(before);
    expect((await auditRows('change.propose')).slice(-10).map((r) => r.target_id)).toEqual(
      pending.map((p) => p.id),
    );
  });

  it('a save of a money stop and other settings applies the stop and proposes the others', async () => {
    const res = await put({ withdrawals_enabled: 'false', max_daily_withdrawal: '2500.50' });
    expect(res.statusCode).toBe(202);
    expect(res.json().changed).toEqual(['withdrawals_enabled']);
    expect(res.json().pending.map((p: { key: string }) => p.key)).toEqual(['max_daily_withdrawal']);
    expect(await settingsMap()).toMatchObject({
      withdrawals_enabled: 'false',
      max_daily_withdrawal: '10000',
    });
    const row = (await auditRows('settings.update')).at(-1);
    expect(row.before).toEqual({ withdrawals_enabled: 'true' });
    expect(row.after).toEqual({ withdrawals_enabled: 'false' });
  });

  it('the proposer cannot approve their own change (403), and nothing changes', async () => {
    const { id } = (await put({ max_daily_withdrawal: '1' })).json().pending[0];
    const res = await withoutChange(t, () => decide(id, 'approve', admin));
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.ownProposal });
    expect((await settingsMap()).max_daily_withdrawal).toBe('10000');
    expect((await pendingChanges()).map((p) => p.id)).toEqual([id]);
  });

  it('a staff member whose roles lack changes.approve cannot approve (403), and nothing changes', async () => {
    const { id } = (await put({ max_daily_withdrawal: '2' })).json().pending[0];
    // An owner decides staff changes, not settings; a treasurer decides nothing.
    const owner = await spareStepUps(t, await verifiedAdmin(t, ['owner']));
    const treasurer = await spareStepUps(t, await verifiedAdmin(t, ['treasurer']));
    try {
      const byOwner = await withoutChange(t, () => decide(id, 'approve', owner));
      expect(byOwner.statusCode).toBe(403);
      expect(errorOf(byOwner)).toEqual({ error: 'FORBIDDEN', message: STAFF_MSG.cannotDecide });
      const byOwnerHere = await withoutChange(t, () =>
        call(t, {
          method: 'POST',
          url: `/api/admin/changes/${id}/approve`,
          cookie: owner.cookie,
          body: { stepUp: stepUpFor(owner) },
        }),
      );
      expect(errorOf(byOwnerHere)).toEqual({
        error: 'FORBIDDEN',
        message: STAFF_MSG.cannotDecide,
      });
      const byTreasurer = await withoutChange(t, () => decide(id, 'approve', treasurer));
      expect(byTreasurer.statusCode).toBe(403);
      expect(errorOf(byTreasurer)).toEqual({
        error: 'FORBIDDEN',
        message: STAFF_MSG.forbiddenRole,
      });
      expect((await settingsMap()).max_daily_withdrawal).toBe('10000');
      expect(await changeStatus(id)).toEqual({ status: 'pending', decided_by: null });
    } finally {
      // Not staff any more: the passkey rule's tests count the staff.
      await t.services.pool.query('DELETE FROM admin_users WHERE user_id = ANY($1::uuid[])', [
        [owner.userId, treasurer.userId],
      ]);
    }
  });

  it('another staff member rejects: dropped, nothing applied, audited; the proposer may withdraw their own', async () => {
    const before = await settingsMap();
    const first = (await put({ confirmations_btc: '1' })).json().pending[0];
    const rejected = await decide(first.id, 'reject', admin2);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().pending).toEqual([]);
    expect(await settingsMap()).toEqual(before);
    expect(await changeStatus(first.id)).toEqual({ status: 'rejected', decided_by: admin2.userId });
    expect((await auditRows('change.reject')).at(-1)).toEqual({
      actor_id: admin2.userId,
      target_type: 'staff_change',
      target_id: first.id,
      before: { kind: 'setting', confirmations_btc: '1' },
      after: null,
      ip: '127.0.0.1',
    });

    const own = (await put({ confirmations_btc: '2' })).json().pending[0];
    const withdrawn = await decide(own.id, 'reject', admin);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await changeStatus(own.id)).toEqual({ status: 'rejected', decided_by: admin.userId });
    expect(await settingsMap()).toEqual(before);
  });

  it('a decided change cannot be decided again (409), and nothing changes', async () => {
    const approvedId = (await put({ max_daily_withdrawal: '700' })).json().pending[0].id;
    expect((await decide(approvedId, 'approve', admin2)).statusCode).toBe(200);
    const rejectedId = (await put({ max_daily_withdrawal: '800' })).json().pending[0].id;
    expect((await decide(rejectedId, 'reject', admin2)).statusCode).toBe(200);
    for (const [id, decision] of [
      [approvedId, 'approve'],
      [approvedId, 'reject'],
      [rejectedId, 'approve'],
      [rejectedId, 'reject'],
    ] as const) {
      const res = await withoutChange(t, () => decide(id, decision, admin3));
      expect(res.statusCode, `${decision} ${id}`).toBe(409);
      expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.changeDecided });
    }
    expect((await settingsMap()).max_daily_withdrawal).toBe('700');
  });

  it('a change expires after 72 hours: its approval is refused (409) and nothing is applied', async () => {
    const { id } = (await put({ max_daily_withdrawal: '4444' })).json().pending[0];
    await t.services.pool.query(
      `UPDATE staff_changes SET proposed_at = now() - interval '73 hours',
              expires_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    // An expired change is no longer listed as waiting.
    expect(await pendingChanges()).toEqual([]);
    const approvals = (await auditRows('settings.approve')).length;
    const announced = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'max_daily_withdrawal'",
    );
    const res = await decide(id, 'approve', admin2);
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.changeExpired });
    expect((await settingsMap()).max_daily_withdrawal).toBe('10000');
    expect((await auditRows('settings.approve')).length).toBe(approvals);
    const after = await t.services.pool.query(
      "SELECT updated_at FROM app_settings WHERE setting_key = 'max_daily_withdrawal'",
    );
    expect(after.rows[0].updated_at).toEqual(announced.rows[0].updated_at);
    // It is recorded as expired, decided by nobody; deciding it again is a 409 that changes nothing.
    expect(await changeStatus(id)).toEqual({ status: 'expired', decided_by: null });
    const again = await withoutChange(t, () => decide(id, 'approve', admin3));
    expect(errorOf(again)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.changeDecided });
  });

  it('parallel approvals apply the change once', async () => {
    const { id } = (await put({ max_daily_withdrawal: '1234' })).json().pending[0];
    const approvals = (await auditRows('settings.approve')).length;
    const results = await Promise.all([
      decide(id, 'approve', admin2),
      decide(id, 'approve', admin3),
      decide(id, 'reject', admin2),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = results.find((r) => r.statusCode === 200);
    const status = await changeStatus(id);
    // Whichever came first decided it; the others changed nothing.
    if (status.status === 'approved') {
      expect((await settingsMap()).max_daily_withdrawal).toBe('1234');
      expect((await auditRows('settings.approve')).length).toBe(approvals + 1);
    } else {
      expect(status.status).toBe('rejected');
      expect((await settingsMap()).max_daily_withdrawal).toBe('10000');
      expect((await auditRows('settings.approve')).length).toBe(approvals);
    }
    expect(winner?.json().pending).toEqual([]);
  });

  it('two staff members approving in parallel: one applies, the other is told it is decided', async () => {
    const { id } = (await put({ max_daily_withdrawal: '4321' })).json().pending[0];
    const approvals = (await auditRows('settings.approve')).length;
    const results = await Promise.all([
      decide(id, 'approve', admin2),
      decide(id, 'approve', admin3),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await settingsMap()).max_daily_withdrawal).toBe('4321');
    expect((await auditRows('settings.approve')).length).toBe(approvals + 1);
  });

  it('a newer proposal for the same setting replaces the older one', async () => {
    const older = (await put({ security_hold_hours: '72' })).json().pending[0];
    const res = await put({ security_hold_hours: '96' }, admin2);
    expect(res.statusCode).toBe(202);
    const newer = res.json().pending[0];
    expect(await changeStatus(older.id)).toEqual({ status: 'replaced', decided_by: admin2.userId });
    expect(await pendingChanges()).toEqual([newer]);
    expect((await auditRows('change.propose')).at(-1)).toMatchObject({
      actor_id: admin2.userId,
      target_id: newer.id,
      after: { kind: 'setting', security_hold_hours: '96', replaces: older.id },
    });
    // The older one cannot be approved any more; the newer one can, by another staff member.
    const stale = await withoutChange(t, () => decide(older.id, 'approve', admin3));
    expect(stale.statusCode).toBe(409);
    expect((await decide(newer.id, 'approve', admin)).statusCode).toBe(200);
    expect((await settingsMap()).security_hold_hours).toBe('96');
  });

  it("approval checks the value again: one stored before today's rules is refused", async () => {
    // A proposal from before the floor of 24 hours existed.
    const { rows } = await t.services.pool.query(
      `INSERT INTO staff_changes (kind, target_key, payload, summary, after, proposed_by, expires_at)
       VALUES ('setting', 'security_hold_hours', '{"key":"security_hold_hours","value":"2"}',
               'Set security_hold_hours to 2', '{"security_hold_hours":"2"}', $1,
               now() + interval '72 hours')
       RETURNING id`,
      [admin.userId],
    );
    const res = await withoutChange(t, () => decide(rows[0].id, 'approve', admin2));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      error: 'VALIDATION_FAILED',
      message: 'Security hold (hours) must be a whole number of hours from 24 to 720.',
    });
    expect((await settingsMap()).security_hold_hours).toBe('48');
  });

  it('an unknown change is 404 and a malformed id 400, changing nothing', async () => {
    const unknown = await withoutChange(t, () =>
      decide('00000000-0000-4000-8000-000000000000', 'approve', admin2),
    );
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toEqual({ error: 'NOT_FOUND', message: STAFF_MSG.changeNotFound });
    const malformed = await withoutChange(t, () => decide('not-an-id', 'reject', admin2));
    expect(malformed.statusCode).toBe(400);
  });

  it('an emergency stop applies at once for one staff member; turning money back on waits for another', async () => {
    const stop = await put({
      withdrawals_enabled: 'false',
      deposits_enabled: 'false',
      maintenance_mode: 'true',
    });
    expect(stop.statusCode).toBe(200);
    expect(stop.json().changed).toEqual([
      'deposits_enabled',
      'maintenance_mode',
      'withdrawals_enabled',
    ]);
    expect(stop.json().pending).toEqual([]);
    expect(await settingsMap()).toMatchObject({
      withdrawals_enabled: 'false',
      deposits_enabled: 'false',
      maintenance_mode: 'true',
    });
    expect((await auditRows('settings.update')).at(-1).after).toEqual({
      deposits_enabled: 'false',
      maintenance_mode: 'true',
      withdrawals_enabled: 'false',
    });

    const on = await put({
      withdrawals_enabled: 'true',
      deposits_enabled: 'true',
      maintenance_mode: 'false',
    });
    expect(on.statusCode).toBe(202);
    expect(on.json().changed).toEqual([]);
    const pending = on.json().pending as Array<{ id: string; key: string }>;
    expect(pending.map((p) => p.key)).toEqual([
      'deposits_enabled',
      'maintenance_mode',
      'withdrawals_enabled',
    ]);
    expect(await settingsMap()).toMatchObject({
      withdrawals_enabled: 'false',
      deposits_enabled: 'false',
      maintenance_mode: 'true',
    });
    for (const p of pending) expect((await decide(p.id, 'approve', admin2)).statusCode).toBe(200);
    expect(await settingsMap()).toMatchObject({
      withdrawals_enabled: 'true',
      deposits_enabled: 'true',
      maintenance_mode: 'false',
    });
  });

  it('a missing or wrong second factor is refused and changes nothing, on every route', async () => {
    const { id } = (await put({ max_daily_withdrawal: '900' })).json().pending[0];
    const attempts: Array<[string, () => Promise<{ statusCode: number }>]> = [
      ['PUT stop, none', () => put({ withdrawals_enabled: 'false' }, admin, {})],
      ['PUT other, none', () => put({ security_hold_hours: '30' }, admin, {})],
      [
        'PUT stop, wrong',
        () => put({ withdrawals_enabled: 'false' }, admin, { stepUp: { code: '000000' } }),
      ],
      [
        'PUT other, wrong',
        () => put({ security_hold_hours: '30' }, admin, { stepUp: { code: 'ZZZZ-ZZZZ' } }),
      ],
      ['approve, none', () => decide(id, 'approve', admin2, {})],
      ['approve, wrong', () => decide(id, 'approve', admin2, { stepUp: { code: '000000' } })],
      ['reject, none', () => decide(id, 'reject', admin2, {})],
      ['reject, wrong', () => decide(id, 'reject', admin2, { stepUp: { code: 'ZZZZ-ZZZZ' } })],
    ];
    for (const [what, attempt] of attempts) {
      const res = await withoutChange(t, attempt);
      expect(res.statusCode, what).toBe(400);
      expect(errorOf(res as never), what).toEqual(
        what.endsWith('none')
          ? { error: 'VALIDATION_FAILED', message: STEP_UP_MSG.required }
          : { error: 'INVALID_CODE', message: STEP_UP_MSG.invalid },
      );
    }
    expect((await settingsMap()).max_daily_withdrawal).toBe('10000');
    expect((await pendingChanges()).map((p) => p.id)).toEqual([id]);
  });
});

describe('admins_require_passkey', () => {
  /** Every staff member gets a passkey row (the rule only counts them), removed afterwards. */
  async function passkeysForAllStaff() {
    await t.services.pool.query(
      `INSERT INTO passkeys (user_id, credential_id, public_key, name)
       SELECT user_id, 'test-' || user_id, 'test-key', 'Test key' FROM admin_users`,
    );
  }
  afterEach(async () => {
    await t.services.pool.query("DELETE FROM passkeys WHERE credential_id LIKE 'test-%'");
  });

  it('is refused at proposal (409) while a staff member has no passkey, naming them; nothing changes', async () => {
    const { rows } = await t.services.pool.query<{ email: string }>(
      `SELECT u.email FROM admin_users a JOIN users u ON u.id = a.user_id ORDER BY u.email`,
    );
    const res = await withoutChange(t, () => put({ admins_require_passkey: 'true' }));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({
      error: 'CONFLICT',
      message: SETTINGS_MSG.staffWithoutPasskey(rows.map((r) => r.email)),
    });
    expect(await pendingChanges()).toEqual([]);
  });

  it('is proposed once every staff member holds one, and refused at approval (409) if one without joined meanwhile', async () => {
    await passkeysForAllStaff();
    const res = await put({ admins_require_passkey: 'true' });
    expect(res.statusCode, res.body).toBe(202);
    const { id } = res.json().pending[0];
    const newcomer = await verifiedAdmin(t, ['support']);
    try {
      const refused = await withoutChange(t, () => decide(id, 'approve', admin2));
      expect(refused.statusCode).toBe(409);
      expect(errorOf(refused)).toEqual({
        error: 'CONFLICT',
        message: SETTINGS_MSG.staffWithoutPasskey([newcomer.email]),
      });
      expect((await settingsMap()).admins_require_passkey).toBe('false');
      expect(await changeStatus(id)).toEqual({ status: 'pending', decided_by: null });
    } finally {
      await t.services.pool.query('DELETE FROM admin_users WHERE user_id = $1', [newcomer.userId]);
    }
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
