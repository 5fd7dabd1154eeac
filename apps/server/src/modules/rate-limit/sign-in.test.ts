import { MSG } from '@coffer/shared';
import {
  HASH_BUSY_RETRY_AFTER_S,
  HASH_CONCURRENCY,
  HASH_QUEUE,
  hashingLoad,
  hashPassword,
} from '@server/lib/password';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  signIn,
  signUp,
  signUpAndSignIn,
  type TestApp,
  tableText,
  verificationToken,
  withoutChange,
} from '@server-test/helpers';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// This file tests scrypt's real cost (or the hashing pool's queue, which needs hashes that
// take as long as in production): the cheaper test cost (decision 0038) is put back.
beforeAll(() => {
  vi.stubEnv('COFFER_TEST_SCRYPT_N', '');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

/**
 * Sign-in under attack (decision 0026): strangers' wrong passwords never lock the owner out
 * of a browser they signed in on before (its device cookie), a flood is turned away at once
 * instead of queueing for half a minute, and the client address is the one the proxy saw.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Each password checked is a deliberately slow scrypt. */
const SLOW_HASHING = 120_000;
const WRONG_PASSWORD = 'Wrong-Guess-1';
let lastAddress = 0;
const address = () => `2001:db8::${(++lastAddress).toString(16)}`;

/** The device cookie a sign-in set, as a Cookie header value, or null. */
function deviceCookie(res: LightMyRequestResponse): string | null {
  const c = res.cookies.find((x) => x.name === 'coffer_device');
  return c ? `coffer_device=${c.value}` : null;
}

/** A sign-in from a browser that holds `cookie` (its device cookie). */
function signInWith(
  app: TestApp,
  cookie: string | null,
  email: string,
  password: string,
  ip: string,
) {
  return call(app, {
    method: 'POST',
    url: '/api/auth/sign-in',
    body: { email, password },
    ip,
    ...(cookie ? { cookie } : {}),
  });
}

/** A refusal for too many attempts, with the time to wait in words and in a header. */
function expectRateLimited(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(429);
  expect(res.json().error).toBe('RATE_LIMITED');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

/** An owner signed in once from their browser at home: that browser is a known device. */
async function ownerWithDevice(): Promise<SignedInUser & { device: string; home: string }> {
  const user = await signUpAndSignIn(t);
  const home = address();
  const res = await signIn(t, user.email, user.password, home);
  expect(res.statusCode).toBe(200);
  const device = deviceCookie(res);
  if (!device) throw new Error('no device cookie after a right sign-in');
  return { ...user, device, home };
}

async function lockOutStrangers(email: string, from = address()): Promise<void> {
  for (let i = 0; i < 10; i++) {
    expect((await signIn(t, email, WRONG_PASSWORD, from)).statusCode).toBe(401);
  }
}

/** What a quarter of an hour later looks like to the limiter: every window has ended. */
async function letWindowsPass(): Promise<void> {
  await t.services.pool.query(
    "UPDATE rate_limits SET window_start = window_start - interval '15 minutes'",
  );
}

describe('device cookies', { timeout: SLOW_HASHING }, () => {
  it('are given at a right password only: HttpOnly, SameSite=Strict, for the sign-in routes, a year long', async () => {
    const user = await signUpAndSignIn(t);
    const wrong = await signIn(t, user.email, WRONG_PASSWORD, address());
    expect(deviceCookie(wrong)).toBeNull();

    const right = await signIn(t, user.email, user.password, address());
    const cookie = right.cookies.find((c) => c.name === 'coffer_device');
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
      maxAge: 365 * 24 * 3600,
    });
    // PUBLIC_URL is http here; an https one makes it Secure (below).
    expect(cookie?.secure).toBeUndefined();
  });

  it('are Secure when PUBLIC_URL is https', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://coffer.example.com' });
    try {
      const email = `secure-${Date.now()}@example.com`;
      await signUp(https, email);
      await call(https, {
        method: 'POST',
        url: '/api/auth/verify-email',
        body: { token: verificationToken(https, email) },
      });
      const res = await signIn(https, email, 'Coffer-Test-1');
      expect(res.statusCode).toBe(200);
      expect(res.cookies.find((c) => c.name === 'coffer_device')?.secure).toBe(true);
    } finally {
      await https.close();
    }
  });

  it("let the owner in from their known device after a stranger's 10 wrong passwords; unknown clients stay locked", async () => {
    const owner = await ownerWithDevice();
    await lockOutStrangers(owner.email);

    // Anyone without the device cookie, the owner on a new device included, waits.
    expectRateLimited(
      await withoutChange(t, () => signIn(t, owner.email, owner.password, address())),
    );
    expectRateLimited(
      await withoutChange(t, () => signIn(t, owner.email, owner.password, owner.home)),
    );

    // The owner's own browser, even from another address, is not locked by the stranger.
    const known = await signInWith(t, owner.device, owner.email, owner.password, address());
    expect(known.statusCode).toBe(200);
    expect(known.json().session.user.email).toBe(owner.email);
    // Its token is kept: the same counter goes on being the device's.
    expect(deviceCookie(known)).toBe(owner.device);
  });

  it('limit a known device to 5 wrong passwords on its own counter, which locks that cookie and nothing else', async () => {
    const owner = await ownerWithDevice();
    for (let i = 0; i < 5; i++) {
      const res = await signInWith(t, owner.device, owner.email, WRONG_PASSWORD, owner.home);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({
        error: 'INVALID_CREDENTIALS',
        message: MSG.invalidCredentials,
      });
    }
    // The cookie is locked, even against the right password.
    expectRateLimited(
      await withoutChange(t, () =>
        signInWith(t, owner.device, owner.email, owner.password, owner.home),
      ),
    );
    // Its guesses were not the account's: the owner signs in elsewhere as before.
    expect((await signIn(t, owner.email, owner.password, address())).statusCode).toBe(200);
    // Its lock ends with its window.
    await letWindowsPass();
    expect(
      (await signInWith(t, owner.device, owner.email, owner.password, owner.home)).statusCode,
    ).toBe(200);
  });

  it("give no privilege when forged, made up, or another account's", async () => {
    const owner = await ownerWithDevice();
    const other = await ownerWithDevice();
    await lockOutStrangers(owner.email);

    const value = owner.device.slice('coffer_device='.length);
    const flipped = `${value.slice(0, -1)}${value.endsWith('0') ? '1' : '0'}`;
    const forgeries = [
      `coffer_device=${flipped}`,
      `coffer_device=${'A'.repeat(22)}.${'0'.repeat(32)}`,
      // The same device id with another account's mark.
      `coffer_device=${value.split('.')[0]}.${other.device.split('.')[1]}`,
      other.device,
      'coffer_device=garbage',
    ];
    for (const cookie of forgeries) {
      expectRateLimited(
        await withoutChange(t, () =>
          signInWith(t, cookie, owner.email, owner.password, owner.home),
        ),
      );
    }
    // And wrong guesses with another account's cookie count on the account, not that cookie.
    const stranger = await ownerWithDevice();
    const victim = await signUpAndSignIn(t);
    for (let i = 0; i < 10; i++) {
      const res = await signInWith(t, stranger.device, victim.email, WRONG_PASSWORD, address());
      expect(res.statusCode).toBe(401);
    }
    expectRateLimited(
      await signInWith(t, stranger.device, victim.email, victim.password, address()),
    );
    // The stranger's own device is untouched by it.
    expect(
      (await signInWith(t, stranger.device, stranger.email, stranger.password, address()))
        .statusCode,
    ).toBe(200);
  });

  it('remember several accounts in one browser', async () => {
    const first = await ownerWithDevice();
    const second = await signUpAndSignIn(t);
    const both = await signInWith(t, first.device, second.email, second.password, address());
    expect(both.statusCode).toBe(200);
    const cookie = deviceCookie(both) ?? '';
    await lockOutStrangers(first.email);
    await lockOutStrangers(second.email);
    for (const user of [first, second]) {
      expect((await signInWith(t, cookie, user.email, user.password, address())).statusCode).toBe(
        200,
      );
    }
  });
});

describe('sign-in under a flood', { timeout: SLOW_HASHING }, () => {
  const FULL = HASH_CONCURRENCY + HASH_QUEUE;

  it('answers at once with 503 BUSY and Retry-After when the queue is full, counting and changing nothing; a known device still gets in', async () => {
    const owner = await ownerWithDevice();
    const countersBefore = await tableText(t, 'rate_limits');
    /** The ordinary lane filled: as many hashes as may run and wait. */
    const fill = () => Array.from({ length: FULL }, () => hashPassword('Flood-Pass-1'));

    let background: Promise<string>[] = [];
    let admittedAtAnswer = 0;
    const [busy, ownerBusy] = await withoutChange(t, async () => {
      background = fill();
      expect(hashingLoad().admitted.other).toBe(FULL);
      const answers = await Promise.all([
        signIn(t, 'nobody-flood@example.com', WRONG_PASSWORD, address()),
        // The owner too, from a browser without the device cookie.
        signIn(t, owner.email, owner.password, owner.home),
      ]);
      admittedAtAnswer = hashingLoad().admitted.other;
      return answers;
    });
    for (const res of [busy, ownerBusy]) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'BUSY',
        message: MSG.busy,
        retryAfter: HASH_BUSY_RETRY_AFTER_S,
      });
      expect(res.headers['retry-after']).toBe(String(HASH_BUSY_RETRY_AFTER_S));
    }
    // Answered without waiting: the queue they were refused from was still full.
    expect(admittedAtAnswer).toBe(FULL);
    // Nothing was counted for the refused attempts.
    expect(await tableText(t, 'rate_limits')).toBe(countersBefore);
    await Promise.all(background);

    // The owner's known device has a lane of its own, with a thread of its own: it is
    // answered while the strangers' queue is still there.
    background = fill();
    const known = await signInWith(t, owner.device, owner.email, owner.password, owner.home);
    expect(known.statusCode).toBe(200);
    expect(hashingLoad().admitted.other).toBeGreaterThan(0);
    await Promise.all(background);
    expect(hashingLoad()).toEqual({
      running: 0,
      waiting: 0,
      admitted: { knownDevice: 0, other: 0 },
    });
  });

  it('holds no database connection while sign-ins wait for or run their hash', async () => {
    const burst = Array.from({ length: FULL }, (_, i) =>
      signIn(t, `waiting-${i}@example.com`, WRONG_PASSWORD, address()),
    );
    // Until every admitted sign-in has reached its hash (running or waiting for a thread).
    for (let i = 0; i < 200; i++) {
      const load = hashingLoad();
      if (load.admitted.other === FULL && load.running + load.waiting === FULL) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const load = hashingLoad();
    expect(load.running).toBe(HASH_CONCURRENCY);
    expect(load.waiting).toBe(HASH_QUEUE);
    const { pool } = t.services;
    expect(pool.totalCount - pool.idleCount).toBe(0);
    expect(pool.waitingCount).toBe(0);
    // What an operator sees of it.
    const metrics = (await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    expect(metrics).toContain(`coffer_password_hashes{state="running"} ${HASH_CONCURRENCY}`);
    expect(metrics).toContain(`coffer_password_hashes{state="waiting"} ${HASH_QUEUE}`);
    const answers = await Promise.all(burst);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(FULL).fill(401));
  });

  it('lets a known device in past 200 parallel sign-ins of unknown e-mails from 20 addresses; jobs and the live probe keep working', async () => {
    const owner = await ownerWithDevice();
    const flood = Array.from({ length: 200 }, (_, i) =>
      signIn(t, `flood-${i}@example.com`, WRONG_PASSWORD, `203.0.113.${i % 20}`),
    );
    // How fast they answer under a flood is the benchmark's to measure (signin-flood); here,
    // that they answer at all while it lasts.
    const live = await call(t, { url: '/api/health/live' });
    const known = await signInWith(t, owner.device, owner.email, owner.password, owner.home);
    // A minute job on the same pool, as the staking credits run under the flood.
    await expect(t.services.staking.runCreditJob()).resolves.toMatchObject({ failed: 0 });
    const answers = await Promise.all(flood);

    expect(known.statusCode).toBe(200);
    expect(live.statusCode).toBe(200);
    const busy = answers.filter((r) => r.statusCode === 503);
    const checked = answers.filter((r) => r.statusCode === 401);
    expect(busy.length + checked.length).toBe(200);
    for (const r of busy) {
      expect(r.json().error).toBe('BUSY');
      expect(r.headers['retry-after']).toBe(String(HASH_BUSY_RETRY_AFTER_S));
    }
    // Most were turned away without a hash; every one let in was checked.
    expect(checked.length).toBeGreaterThanOrEqual(FULL);
    expect(busy.length).toBeGreaterThanOrEqual(200 - 2 * FULL);
  });
});

describe('the client address behind a proxy', { timeout: SLOW_HASHING }, () => {
  const PROXY = '10.0.0.1';

  /** A sign-in through the proxy: it appends the address it saw to the client's header. */
  function viaProxy(app: TestApp, email: string, password: string, written: string, real: string) {
    return app.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: {
        origin: app.origin,
        'content-type': 'application/json',
        'x-forwarded-for': `${written}, ${real}`,
      },
      remoteAddress: PROXY,
      payload: JSON.stringify({ email, password }),
    });
  }

  const lastSessionIp = async (app: TestApp, userId: string) =>
    (
      await app.services.pool.query<{ ip: string }>(
        'SELECT ip FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
        [userId],
      )
    ).rows[0]?.ip;

  it('with TRUST_PROXY=1, counts the address the proxy saw, whatever the client writes', async () => {
    const behind = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const real = '198.51.100.77';
      // 30 wrong passwords, each claiming another leftmost address.
      for (let i = 0; i < 30; i++) {
        const res = await viaProxy(
          behind,
          `spoof-${i}@example.com`,
          WRONG_PASSWORD,
          `1.2.3.${i}`,
          real,
        );
        expect(res.statusCode).toBe(401);
      }
      const refused = await viaProxy(
        behind,
        'spoof-x@example.com',
        WRONG_PASSWORD,
        '1.2.3.200',
        real,
      );
      expectRateLimited(refused);
      // Another real address behind the same proxy is not limited.
      const other = await viaProxy(
        behind,
        'spoof-y@example.com',
        WRONG_PASSWORD,
        '1.2.3.4',
        '198.51.100.78',
      );
      expect(other.statusCode).toBe(401);

      // The session records the address the proxy saw.
      const user = await signUpAndSignIn(behind);
      const ok = await viaProxy(behind, user.email, user.password, '1.2.3.4', '198.51.100.79');
      expect(ok.statusCode).toBe(200);
      expect(await lastSessionIp(behind, user.userId)).toBe('198.51.100.79');
    } finally {
      await behind.close();
    }
  });

  it('with a list of proxy addresses, believes the header only from those', async () => {
    const behind = await createTestApp({ TRUST_PROXY: `${PROXY},10.9.0.0/16` });
    try {
      const user = await signUpAndSignIn(behind);
      expect(
        (await viaProxy(behind, user.email, user.password, '1.2.3.4', '198.51.100.80')).statusCode,
      ).toBe(200);
      expect(await lastSessionIp(behind, user.userId)).toBe('198.51.100.80');
      // A client reaching Coffer itself cannot pose as forwarded.
      const direct = await behind.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: {
          origin: behind.origin,
          'content-type': 'application/json',
          'x-forwarded-for': '198.51.100.81',
        },
        remoteAddress: '192.0.2.9',
        payload: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect(direct.statusCode).toBe(200);
      expect(await lastSessionIp(behind, user.userId)).toBe('192.0.2.9');
    } finally {
      await behind.close();
    }
  });

  it('without TRUST_PROXY, ignores X-Forwarded-For', async () => {
    const user = await signUpAndSignIn(t);
    expect(
      (await viaProxy(t, user.email, user.password, '1.2.3.4', '198.51.100.82')).statusCode,
    ).toBe(200);
    expect(await lastSessionIp(t, user.userId)).toBe(PROXY);
  });
});
