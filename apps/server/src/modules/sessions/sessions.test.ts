import { REALTIME_CLOSE, SESSION_BACKGROUND_HEADER, SESSION_EXPIRES_HEADER } from '@coffer/shared';
import {
  call,
  createTestApp,
  errorOf,
  newSession,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { spareStepUps } from '@server-test/money-helpers';
import { subscribed } from '@server-test/realtime-support';
import { putSettings as putSettingsAs, saveSettings } from '@server-test/settings-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_DEFAULTS } from '../settings';

let t: TestApp;
let admin: SignedInUser;
/** A second staff member: every setting but a money stop is approved by another. */
let approver: SignedInUser;
let socketUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  // As the server runs: listening, so the settings are read from the cache, and a change
  // reaches the session look-up only through the announcement every save makes.
  await t.services.listener.start();
  admin = await verifiedAdmin(t);
  await spareStepUps(t, admin);
  approver = await spareStepUps(t, await verifiedAdmin(t));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  socketUrl = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await t.services.listener.stop();
  await t.close();
});
afterEach(async () => {
  await t.services.pool.query(
    `UPDATE app_settings s SET setting_value = d.value
       FROM unnest($1::text[], $2::text[]) AS d(key, value) WHERE s.setting_key = d.key`,
    [SETTING_DEFAULTS.map((d) => d.key), SETTING_DEFAULTS.map((d) => d.value)],
  );
  await t.services.pool.query("SELECT pg_notify('coffer_settings', '')");
});

/** The clock of the session moved back: its last use and its sign-in `minutes` ago. */
async function idleFor(user: SignedInUser, minutes: number, signedInMinutesAgo = minutes) {
  await t.services.pool.query(
    `UPDATE sessions SET last_seen_at = now() - make_interval(mins => $2),
                         created_at = now() - make_interval(mins => $3)
      WHERE user_id = $1`,
    [user.userId, minutes, signedInMinutesAgo],
  );
}

async function sessionRows(user: SignedInUser): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1',
    [user.userId],
  );
  return rows[0]?.n ?? 0;
}

async function lastSeenAt(user: SignedInUser): Promise<Date> {
  const { rows } = await t.services.pool.query<{ at: Date }>(
    'SELECT last_seen_at AS at FROM sessions WHERE user_id = $1',
    [user.userId],
  );
  const at = rows[0]?.at;
  if (!at) throw new Error('no session row');
  return at;
}

/** A signed-in route: 200 while the session lives, 401 once it has ended. */
const twoFactorStatus = (user: SignedInUser, headers: Record<string, string> = {}) =>
  call(t, { url: '/api/2fa/status', cookie: user.cookie, headers });

const sessionOf = async (user: SignedInUser, headers: Record<string, string> = {}) =>
  (await call(t, { url: '/api/session', cookie: user.cookie, headers })).json().session;

const background = { [SESSION_BACKGROUND_HEADER]: '1' };

const putSettings = (values: Record<string, string>) => putSettingsAs(t, admin, values);
/** Proposed by the admin, approved by the approver: the values applied. */
const saveSettingsNow = (values: Record<string, string>) =>
  saveSettings(t, admin, approver, values);

/** Waits for the save's announcement to reach this instance's settings cache. */
async function cached(key: string, value: string) {
  for (let i = 0; i < 100; i++) {
    if ((await t.services.settings.all()).get(key) === value) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${key} did not become ${value} within 2 s`);
}

describe('session timeouts', () => {
  it('tells the browser both deadlines: 30 idle minutes for a customer, 12 hours in all', async () => {
    const customer = await verifiedCustomer(t);
    const res = await call(t, { url: '/api/session', cookie: customer.cookie });
    const { expiry } = res.json().session;
    expect(expiry.idleMinutes).toBe(30);
    expect(expiry.secondsLeft).toBeGreaterThan(29 * 60);
    expect(expiry.secondsLeft).toBeLessThanOrEqual(30 * 60);
    expect(Number(res.headers[SESSION_EXPIRES_HEADER])).toBe(expiry.secondsLeft);
    const idleIn = Date.parse(expiry.idleExpiresAt) - Date.now();
    expect(idleIn).toBeGreaterThan(29 * 60_000);
    expect(idleIn).toBeLessThanOrEqual(30 * 60_000);
    const absoluteIn = Date.parse(expiry.absoluteExpiresAt) - Date.now();
    expect(absoluteIn).toBeGreaterThan(11.9 * 3600_000);
    expect(absoluteIn).toBeLessThanOrEqual(12 * 3600_000);
    // An admin's idle timeout is the shorter one.
    expect((await sessionOf(admin)).expiry.idleMinutes).toBe(15);
  });

  it("stores each new session's expiry under its role, for lists of sessions and the clean-up", async () => {
    const customer = await verifiedCustomer(t);
    const adminCookie = await newSession(t, admin);
    const { rows } = await t.services.pool.query<{ user_id: string; minutes: number }>(
      `SELECT user_id, round(EXTRACT(EPOCH FROM expires_at - created_at) / 60)::int AS minutes
         FROM sessions WHERE user_id = ANY($1::uuid[]) ORDER BY created_at DESC`,
      [[customer.userId, admin.userId]],
    );
    expect(rows.find((r) => r.user_id === customer.userId)?.minutes).toBe(30);
    // The newest admin session is the one just made.
    expect(rows.find((r) => r.user_id === admin.userId)?.minutes).toBe(15);
    expect(
      (await call(t, { url: '/api/session', cookie: adminCookie })).json().session.user.id,
    ).toBe(admin.userId);
  });

  it('refuses a customer idle for 31 minutes and deletes the session', async () => {
    const customer = await verifiedCustomer(t);
    await idleFor(customer, 31);
    const res = await twoFactorStatus(customer);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).error).toBe('UNAUTHENTICATED');
    expect(await sessionRows(customer)).toBe(0);
    expect(await sessionOf(customer)).toBeNull();
  });

  it('cuts down a session made under the old 7-day rule: its stored expiry is not trusted', async () => {
    const customer = await verifiedCustomer(t);
    await idleFor(customer, 31, 60);
    await t.services.pool.query(
      "UPDATE sessions SET expires_at = now() + interval '6 days' WHERE user_id = $1",
      [customer.userId],
    );
    expect((await twoFactorStatus(customer)).statusCode).toBe(401);
    expect(await sessionRows(customer)).toBe(0);
  });

  it('refuses an admin idle for 16 minutes, but not a customer', async () => {
    const otherAdmin = await verifiedAdmin(t);
    const customer = await verifiedCustomer(t);
    await idleFor(otherAdmin, 16);
    await idleFor(customer, 16);
    expect(
      (await call(t, { url: '/api/admin/settings', cookie: otherAdmin.cookie })).statusCode,
    ).toBe(401);
    expect(await sessionRows(otherAdmin)).toBe(0);
    expect((await twoFactorStatus(customer)).statusCode).toBe(200);
    expect(await sessionRows(customer)).toBe(1);
  });

  it('ends every session 12 hours after sign-in, however active', async () => {
    const customer = await verifiedCustomer(t);
    await idleFor(customer, 0, 12 * 60 - 1);
    const before = await sessionOf(customer);
    // With a minute of its lifetime left, the idle deadline is the absolute one.
    expect(before.expiry.secondsLeft).toBeLessThanOrEqual(60);
    expect(before.expiry.idleExpiresAt).toBe(before.expiry.absoluteExpiresAt);
    await idleFor(customer, 0, 12 * 60 + 1);
    expect((await twoFactorStatus(customer)).statusCode).toBe(401);
    expect(await sessionRows(customer)).toBe(0);
  });

  it('slides the idle timer on a user-initiated request, and not on a background one', async () => {
    const customer = await verifiedCustomer(t);
    await idleFor(customer, 20);
    const idleSince = await lastSeenAt(customer);

    const polled = await twoFactorStatus(customer, background);
    expect(polled.statusCode).toBe(200);
    expect(await lastSeenAt(customer)).toEqual(idleSince);
    // About 10 minutes left, as before the poll.
    expect(Number(polled.headers[SESSION_EXPIRES_HEADER])).toBeLessThanOrEqual(10 * 60);

    // Background polls for 11 more minutes keep nothing alive.
    await idleFor(customer, 31);
    expect((await twoFactorStatus(customer, background)).statusCode).toBe(401);
    expect(await sessionRows(customer)).toBe(0);

    const active = await verifiedCustomer(t);
    await idleFor(active, 20);
    const used = await twoFactorStatus(active);
    expect(used.statusCode).toBe(200);
    expect(Date.now() - (await lastSeenAt(active)).getTime()).toBeLessThan(5_000);
    expect(Number(used.headers[SESSION_EXPIRES_HEADER])).toBeGreaterThan(29 * 60);
  });

  it('applies a changed setting at once, without a restart', async () => {
    const customer = await verifiedCustomer(t);
    await idleFor(customer, 11);
    expect(await sessionOf(customer, background)).not.toBeNull();

    await saveSettingsNow({ session_idle_minutes_customer: '10' });
    await cached('session_idle_minutes_customer', '10');
    expect(await sessionOf(customer, background)).toBeNull();
    expect(await sessionRows(customer)).toBe(0);

    // A longer lifetime applies too: a 13-hour-old session lives with 24 hours allowed.
    await saveSettingsNow({ session_absolute_hours: '24' });
    await cached('session_absolute_hours', '24');
    const longer = await verifiedCustomer(t);
    await idleFor(longer, 0, 13 * 60);
    const session = await sessionOf(longer, background);
    expect(session?.user.id).toBe(longer.userId);
    expect(session?.expiry.idleMinutes).toBe(10);
  });

  const bad: Array<[string, string, string]> = [
    [
      'session_idle_minutes_customer',
      '4',
      'Customer idle timeout (minutes) must be a whole number of minutes from 5 to 1440.',
    ],
    [
      'session_idle_minutes_customer',
      '30.5',
      'Customer idle timeout (minutes) must be a whole number of minutes from 5 to 1440.',
    ],
    [
      'session_idle_minutes_admin',
      '1441',
      'Admin idle timeout (minutes) must be a whole number of minutes from 5 to 1440.',
    ],
    [
      'session_idle_minutes_admin',
      '015',
      'Admin idle timeout (minutes) must be a whole number of minutes from 5 to 1440.',
    ],
    [
      'session_absolute_hours',
      '0',
      'Session lifetime (hours) must be a whole number of hours from 1 to 168.',
    ],
    [
      'session_absolute_hours',
      '169',
      'Session lifetime (hours) must be a whole number of hours from 1 to 168.',
    ],
    [
      'session_absolute_hours',
      'never',
      'Session lifetime (hours) must be a whole number of hours from 1 to 168.',
    ],
  ];

  it.each(bad)('refuses %s = %s with a message and changes nothing', async (key, value, msg) => {
    const res = await withoutChange(t, () => putSettings({ [key]: value }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe(msg);
  });

  it('accepts the bounds', async () => {
    await saveSettingsNow({
      session_idle_minutes_customer: '1440',
      session_idle_minutes_admin: '5',
      session_absolute_hours: '168',
    });
    await cached('session_idle_minutes_customer', '1440');
    await cached('session_idle_minutes_admin', '5');
    await cached('session_absolute_hours', '168');
  });

  it('the clean-up job removes sessions past the limits in force, and only those', async () => {
    const idleCustomer = await verifiedCustomer(t);
    const activeCustomer = await verifiedCustomer(t);
    const idleAdmin = await verifiedAdmin(t);
    await idleFor(idleCustomer, 31);
    await idleFor(activeCustomer, 16);
    await idleFor(idleAdmin, 16);
    await t.services.sessions.deleteExpired();
    expect(await sessionRows(idleCustomer)).toBe(0);
    expect(await sessionRows(idleAdmin)).toBe(0);
    expect(await sessionRows(activeCustomer)).toBe(1);
  });
});

describe('realtime sockets and timeouts', () => {
  it('a socket never keeps its session alive, and closes once the session has timed out', async () => {
    const customer = await verifiedCustomer(t);
    await idleFor(customer, 20);
    const idleSince = await lastSeenAt(customer);
    const { realtime } = t.services;
    realtime.timing.recheckMs = 200;
    try {
      // Connecting, and the hub's periodic re-checks of the session, are not activity.
      const socket = await subscribed(socketUrl, customer.cookie);
      await new Promise((r) => setTimeout(r, 600));
      expect(await lastSeenAt(customer)).toEqual(idleSince);

      // Past the idle limit, the hub's own re-check ends the session and the socket.
      await idleFor(customer, 31);
      expect(await socket.closed).toBe(REALTIME_CLOSE.unauthorized);
      expect(await sessionRows(customer)).toBe(0);
    } finally {
      realtime.timing.recheckMs = 30_000;
    }
  });

  it('a timed-out session presented over HTTP is deleted, which closes its socket at once', async () => {
    const admin2 = await verifiedAdmin(t);
    const socket = await subscribed(socketUrl, admin2.cookie);
    await idleFor(admin2, 16);
    const refused = await call(t, {
      url: '/api/session',
      cookie: admin2.cookie,
      headers: background,
    });
    expect(refused.json().session).toBeNull();
    expect(refused.headers[SESSION_EXPIRES_HEADER]).toBeUndefined();
    expect(await socket.closed).toBe(REALTIME_CLOSE.unauthorized);
  });
});
