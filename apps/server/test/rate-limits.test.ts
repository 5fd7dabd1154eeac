import { MSG } from '@coffer/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HASH_BUSY_RETRY_AFTER_S, HASH_CONCURRENCY, HASH_QUEUE } from '../src/lib/password';
import {
  call,
  codeFor,
  createTestApp,
  gateRefusal,
  mailsTo,
  newSession,
  type SignedInUser,
  signIn,
  signUp,
  signUpAndSignIn,
  storedFileKeys,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from './helpers';
import { realPng } from './image-fixtures';
import { type FilePart, multipart } from './multipart';

// This file tests scrypt's real cost (or the hashing pool's queue, which needs hashes that
// take as long as in production): the cheaper test cost (decision 0038) is put back.
beforeAll(() => {
  vi.stubEnv('COFFER_TEST_SCRYPT_N', '');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/**
 * Each password checked or hashed is a deliberately slow scrypt: tests that check dozens
 * get time for it, also when other suites share the machine.
 */
const SLOW_HASHING = 90_000;
const WRONG_PASSWORD = 'Wrong-Guess-1';
const WRONG_PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
// Each test attacks from addresses of its own (the IPv6 documentation range, RFC 3849):
// the bursts below need more of them than an IPv4 documentation range holds.
let lastAddress = 0;
const address = () => `2001:db8::${(++lastAddress).toString(16)}`;

/**
 * A refusal for too many attempts that tells the person how long to wait, in words and in a
 * header: never longer than the limit's window.
 */
function expectRateLimited(res: LightMyRequestResponse, windowSeconds = 15 * 60): void {
  expect(res.statusCode).toBe(429);
  const body: { error: string; message: string; retryAfter: number } = res.json();
  expect(body.error).toBe('RATE_LIMITED');
  expect(body.retryAfter).toBeGreaterThan(0);
  expect(body.retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers['retry-after']).toBe(String(body.retryAfter));
  const minutes = Math.ceil(body.retryAfter / 60);
  expect(body.message).toBe(
    `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
  );
}

/** What a quarter of an hour later looks like to the limiter: every window has ended. */
async function letWindowsPass(): Promise<void> {
  await t.services.pool.query(
    "UPDATE rate_limits SET window_start = window_start - interval '15 minutes'",
  );
}

async function failSignIns(emails: string[], ip: string): Promise<void> {
  for (const email of emails)
    expect((await signIn(t, email, WRONG_PASSWORD, ip)).statusCode).toBe(401);
}

describe('sign-in attempts', { timeout: SLOW_HASHING }, () => {
  it('locks an account after 10 wrong passwords, even against the right one, but not its neighbours', async () => {
    const victim = await signUpAndSignIn(t);
    const neighbour = await signUpAndSignIn(t);
    const attacker = address();
    // Spelling the address differently does not make it another account.
    const spellings = [victim.email, victim.email.toUpperCase(), ` ${victim.email}`];
    await failSignIns(
      Array.from({ length: 10 }, (_, i) => spellings[i % 3] ?? victim.email),
      attacker,
    );

    const locked = await withoutChange(t, () =>
      signIn(t, victim.email, victim.password, address()),
    );
    expectRateLimited(locked);
    expect(locked.json().message).toBe('Too many attempts. Please wait 15 minutes and try again.');

    expect((await signIn(t, neighbour.email, neighbour.password, attacker)).statusCode).toBe(200);
  });

  it('limits one address to 30 failures across all accounts; other addresses are unaffected', async () => {
    const customer = await signUpAndSignIn(t);
    const attacker = address();
    await failSignIns(
      Array.from({ length: 30 }, (_, i) => `guess-${i}@example.com`),
      attacker,
    );
    expectRateLimited(
      await withoutChange(t, () => signIn(t, customer.email, customer.password, attacker)),
    );
    expect((await signIn(t, customer.email, customer.password, address())).statusCode).toBe(200);
  });

  it('ends a lock with its window, so nobody can lock a customer out for good', async () => {
    const customer = await signUpAndSignIn(t);
    await failSignIns(
      Array.from({ length: 10 }, () => customer.email),
      address(),
    );
    const home = address();
    expectRateLimited(await signIn(t, customer.email, customer.password, home));

    await letWindowsPass();
    expect((await signIn(t, customer.email, customer.password, home)).statusCode).toBe(200);
  });
});

describe('second-factor attempts', () => {
  it('locks the second factor after 5 wrong codes, even against the right one, until the window ends', async () => {
    const user = await verifiedCustomer(t);
    const device = await newSession(t, user);
    const verify = (code: string) =>
      call(t, { method: 'POST', url: '/api/2fa/verify', cookie: device, body: { code } });
    const near = [0, 1, 2].map((steps) => codeFor(user, steps));
    const wrong =
      ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c)) ?? '444444';

    for (let i = 0; i < 5; i++) expect((await verify(wrong)).statusCode).toBe(400);
    expectRateLimited(await withoutChange(t, () => verify(codeFor(user, 1))));
    expect(await gateRefusal(t, device)).toBe('TWO_FACTOR_REQUIRED');

    await letWindowsPass();
    expect((await verify(codeFor(user, 1))).statusCode).toBe(200);
  });
});

describe('what counts', () => {
  it(
    'counts wrong passwords only: the right one, typed again and again, never locks',
    async () => {
      const user = await verifiedCustomer(t);
      const from = address();
      const unlock = (password: string) =>
        call(t, {
          method: 'POST',
          url: '/api/recovery-phrase/unlock',
          cookie: user.cookie,
          ip: from,
          body: { password },
        });
      // More right answers than the limit of 10: each is counted while checked, then taken off.
      for (let i = 0; i < 12; i++) expect((await unlock(user.password)).statusCode).toBe(200);
      for (let i = 0; i < 10; i++) expect((await unlock(WRONG_PASSWORD)).statusCode).toBe(401);
      expectRateLimited(await withoutChange(t, () => unlock(user.password)));
      // 22 password hashes one after another: slow on a busy machine, not a sign of trouble.
    },
    SLOW_HASHING,
  );
});

describe('password reset attempts', () => {
  it('gives one address 10 wrong phrases, then refuses even the right one from it', async () => {
    const user = await verifiedCustomer(t);
    const attacker = address();
    const reset = (recoveryPhrase: string, ip: string) =>
      call(t, {
        method: 'POST',
        url: '/api/auth/reset-password',
        ip,
        body: { recoveryPhrase, newPassword: 'Taken-Over-9' },
      });

    for (let i = 0; i < 10; i++) expect((await reset(WRONG_PHRASE, attacker)).statusCode).toBe(400);
    expectRateLimited(await withoutChange(t, () => reset(user.seedPhrase ?? '', attacker)));
    expect((await reset(user.seedPhrase ?? '', address())).statusCode).toBe(200);
  });
});

/**
 * The same attempt fired `n` times at once, as a script would: every limit must hold when
 * the attempts race each other, not only when they arrive one by one.
 */
function atOnce(
  n: number,
  attempt: (i: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => attempt(i)));
}

/**
 * Sorts a burst's answers: each refusal for too many attempts must say how long to wait, and
 * so must each one turned away because the password-hashing queue was full (503 BUSY, before
 * anything was counted); the others are the attempts that were let through to be checked.
 */
function sortOut(responses: LightMyRequestResponse[], windowSeconds = 15 * 60) {
  const limited = responses.filter((r) => r.statusCode === 429);
  for (const r of limited) expectRateLimited(r, windowSeconds);
  const busy = responses.filter((r) => r.statusCode === 503);
  for (const r of busy) {
    expect(r.json()).toEqual({
      error: 'BUSY',
      message: MSG.busy,
      retryAfter: HASH_BUSY_RETRY_AFTER_S,
    });
    expect(r.headers['retry-after']).toBe(String(HASH_BUSY_RETRY_AFTER_S));
  }
  const checked = responses.filter((r) => r.statusCode !== 429 && r.statusCode !== 503);
  return {
    limited: limited.length,
    busy: busy.length,
    checked,
    errors: checked.map((r) => r.json().error),
  };
}

/** Sign-ins the password-hashing pool takes at once (running and queued); more are BUSY. */
const HASH_SLOTS = HASH_CONCURRENCY + HASH_QUEUE;

/** A code for `user` that is none of the codes the server would accept right now. */
function wrongCode(user: SignedInUser): string {
  const near = [-1, 0, 1, 2].map((steps) => codeFor(user, steps));
  return ['000000', '111111', '222222', '333333', '444444'].find((c) => !near.includes(c)) ?? '';
}

const BURST = 50;
const HOUR = 3600;
const TEN_MINUTES = 600;

describe('attempts fired at once', () => {
  it(
    'checks at most 10 passwords of one account, however many arrive together',
    async () => {
      const victim = await signUpAndSignIn(t);
      const burst = await withoutChange(t, () =>
        atOnce(BURST, () => signIn(t, victim.email, WRONG_PASSWORD, address())),
      );
      const { limited, busy, errors } = sortOut(burst);
      expect(errors).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
      // The rest were never checked: over the limit, or turned away by the full hashing queue.
      expect(limited + busy).toBe(BURST - 10);
      expectRateLimited(await signIn(t, victim.email, victim.password, address()));
    },
    SLOW_HASHING,
  );

  it(
    'checks at most 30 passwords from one address, also when those crossing the limit arrive together',
    async () => {
      const customer = await signUpAndSignIn(t);
      const attacker = address();
      const guess = (i: number) => signIn(t, `burst-${i}@example.com`, WRONG_PASSWORD, attacker);
      // 25 first, as many at a time as the hashing queue takes (more would be turned away busy).
      for (let done = 0; done < 25; done += HASH_SLOTS) {
        const wave = await atOnce(Math.min(HASH_SLOTS, 25 - done), (i) => guess(done + i));
        expect(wave.map((r) => r.statusCode)).toEqual(wave.map(() => 401));
      }
      // Then a full queue at once, racing across the limit: 5 checked, none more.
      const burst = await withoutChange(t, () => atOnce(HASH_SLOTS, (i) => guess(100 + i)));
      const { limited, busy, errors } = sortOut(burst);
      expect(errors).toEqual(Array(5).fill('INVALID_CREDENTIALS'));
      expect(busy).toBe(0);
      expect(limited).toBe(HASH_SLOTS - 5);
      expectRateLimited(await signIn(t, customer.email, customer.password, attacker));
    },
    SLOW_HASHING,
  );

  it('compares at most 5 authenticator codes of a password-only session', async () => {
    const user = await verifiedCustomer(t);
    const device = await newSession(t, user);
    const guess = wrongCode(user);
    const burst = await withoutChange(t, () =>
      atOnce(BURST, () =>
        call(t, {
          method: 'POST',
          url: '/api/2fa/verify',
          cookie: device,
          ip: address(),
          body: { code: guess },
        }),
      ),
    );
    const { limited, errors } = sortOut(burst);
    expect(errors).toEqual(Array(5).fill('INVALID_CODE'));
    expect(limited).toBe(BURST - 5);
    expect(await gateRefusal(t, device)).toBe('TWO_FACTOR_REQUIRED');
  });

  it('compares at most 5 backup codes of a password-only session', async () => {
    const user = await verifiedCustomer(t);
    const device = await newSession(t, user);
    const guesses = Array.from({ length: BURST }, (_, i) => `WRNG${String(i).padStart(4, '2')}`);
    const burst = await withoutChange(t, () =>
      atOnce(BURST, (i) =>
        call(t, {
          method: 'POST',
          url: '/api/2fa/verify',
          cookie: device,
          ip: address(),
          body: { backupCode: guesses[i] },
        }),
      ),
    );
    const { limited, errors } = sortOut(burst);
    expect(errors).toEqual(Array(5).fill('INVALID_CODE'));
    expect(limited).toBe(BURST - 5);
    expect(await gateRefusal(t, device)).toBe('TWO_FACTOR_REQUIRED');
  });

  it('checks at most 10 phrases from one address at the password reset', async () => {
    const user = await verifiedCustomer(t);
    const attacker = address();
    const reset = (recoveryPhrase: string) =>
      call(t, {
        method: 'POST',
        url: '/api/auth/reset-password',
        ip: attacker,
        body: { recoveryPhrase, newPassword: 'Taken-Over-9' },
      });
    const burst = await withoutChange(t, () => atOnce(BURST, () => reset(WRONG_PHRASE)));
    const { limited, errors } = sortOut(burst);
    expect(errors).toEqual(Array(10).fill('INVALID_RECOVERY_PHRASE'));
    expect(limited).toBe(BURST - 10);
    expectRateLimited(await withoutChange(t, () => reset(user.seedPhrase ?? '')));
  });

  it('checks at most 5 phrases of one account at the 2FA reset', async () => {
    const user = await verifiedCustomer(t);
    const device = await newSession(t, user);
    const burst = await withoutChange(t, () =>
      atOnce(BURST, () =>
        call(t, {
          method: 'POST',
          url: '/api/2fa/reset-with-phrase',
          cookie: device,
          ip: address(),
          body: { seedPhrase: WRONG_PHRASE },
        }),
      ),
    );
    const { limited, errors } = sortOut(burst);
    expect(errors).toEqual(Array(5).fill('INVALID_RECOVERY_PHRASE'));
    expect(limited).toBe(BURST - 5);
  });

  it("checks at most 5 phrases staff type for one customer's 2FA reset", async () => {
    const admin = await verifiedAdmin(t);
    const customer = await verifiedCustomer(t);
    const burst = await withoutChange(t, () =>
      atOnce(BURST, () =>
        call(t, {
          method: 'POST',
          url: `/api/admin/users/${customer.userId}/two-factor/reset`,
          cookie: admin.cookie,
          // Never reached: the phrase is refused first.
          body: { recoveryPhrase: WRONG_PHRASE, stepUp: { code: '000000' } },
        }),
      ),
    );
    const { limited, errors } = sortOut(burst);
    expect(errors).toEqual(Array(5).fill('INVALID_RECOVERY_PHRASE'));
    expect(limited).toBe(BURST - 5);
  });

  it('sends at most 5 mails an hour to one address, however many resends arrive together', async () => {
    const email = `resend-burst-${lastAddress}@example.com`;
    expect((await signUp(t, email)).statusCode).toBe(200);
    const burst = await atOnce(BURST, () =>
      call(t, {
        method: 'POST',
        url: '/api/auth/resend-verification',
        ip: address(),
        body: { email },
      }),
    );
    const { limited, checked } = sortOut(burst, HOUR);
    // The sign-up's own mail is the first of the five.
    expect(checked.map((r) => r.statusCode)).toEqual(Array(4).fill(200));
    expect(limited).toBe(BURST - 4);
    expect(mailsTo(t, email)).toHaveLength(5);
  });

  it(
    'sends at most 5 mails an hour to one address, however many sign-ups name it together',
    async () => {
      const email = `sign-up-burst-${lastAddress}@example.com`;
      const burst = await atOnce(BURST, () => signUp(t, email, 'Burst-Pass-1', address()));
      const { limited, busy, checked } = sortOut(burst, HOUR);
      expect(checked.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
      // The rest sent nothing: over the limit, or turned away by the full hashing queue.
      expect(limited + busy).toBe(BURST - 5);
      expect(mailsTo(t, email)).toHaveLength(5);
      const { rows } = await t.services.pool.query('SELECT 1 FROM users WHERE email = $1', [email]);
      expect(rows).toHaveLength(1);
    },
    SLOW_HASHING,
  );
});

describe('uploads', () => {
  /** Every file in the private store, as keys. */
  function storedFiles(): Promise<string[]> {
    return storedFileKeys(t);
  }

  function upload(cookie: string, url: string, fields: Record<string, string>, files: FilePart[]) {
    const body = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, origin: t.origin, 'content-type': body.contentType },
      payload: body.payload,
    });
  }

  it('takes at most 30 chat attachments from one customer in 10 minutes, however many arrive together', async () => {
    const customer = await verifiedCustomer(t);
    const room = (
      await call(t, { method: 'POST', url: '/api/chat/rooms', cookie: customer.cookie, body: {} })
    ).json().room;
    const url = `/api/chat/rooms/${room.id}/attachments`;
    const picture = (i: number): FilePart => ({
      field: 'files',
      filename: `shot-${i}.png`,
      bytes: realPng(),
      type: 'image/png',
    });
    const filesBefore = (await storedFiles()).length;

    const burst = await atOnce(BURST, (i) => upload(customer.cookie, url, {}, [picture(i)]));
    const { limited, checked } = sortOut(burst, TEN_MINUTES);
    expect(checked.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    expect(limited).toBe(BURST - 30);
    // The refused uploads left nothing behind: one message and one file per accepted one.
    const { rows } = await t.services.pool.query(
      'SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1',
      [room.id],
    );
    expect(rows[0].n).toBe(30);
    expect((await storedFiles()).length - filesBefore).toBe(30);

    expectRateLimited(
      await withoutChange(t, () => upload(customer.cookie, url, {}, [picture(BURST)])),
      TEN_MINUTES,
    );
    // Plain text is no upload: the customer can still write.
    const text = await call(t, {
      method: 'POST',
      url: `/api/chat/rooms/${room.id}/messages`,
      cookie: customer.cookie,
      body: { text: 'still here' },
    });
    expect(text.statusCode).toBe(200);
  });

  it('takes at most 30 identity documents from one customer in 10 minutes, however many arrive together', async () => {
    const customer = await verifiedCustomer(t);
    const fields = {
      fullName: 'Ada Lovelace',
      phoneNumber: '+61 400 000 000',
      address: '1 Main St',
    };
    const document: FilePart = {
      field: 'front',
      filename: 'front.png',
      bytes: realPng(),
      type: 'image/png',
    };
    const filesBefore = (await storedFiles()).length;

    const burst = await atOnce(BURST, () =>
      upload(customer.cookie, '/api/kyc', fields, [document]),
    );
    const { limited, checked } = sortOut(burst, TEN_MINUTES);
    // One submission is taken; the other checked ones find it already there.
    expect(checked.map((r) => r.statusCode).sort()).toEqual([200, ...Array(29).fill(409)]);
    expect(limited).toBe(BURST - 30);
    expect((await storedFiles()).length - filesBefore).toBe(1);
  });
});
