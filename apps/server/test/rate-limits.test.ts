import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeFor,
  createTestApp,
  gateRefusal,
  newSession,
  signIn,
  signUpAndSignIn,
  type TestApp,
  verifiedCustomer,
  withoutChange,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const WRONG_PASSWORD = 'Wrong-Guess-1';
const WRONG_PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
// Each test attacks from addresses of its own (RFC 5737 documentation ranges).
let lastOctet = 0;
const address = () => `203.0.113.${++lastOctet}`;

/** A refusal for too many attempts that tells the person how long to wait, in words and in a header. */
function expectRateLimited(res: LightMyRequestResponse): void {
  expect(res.statusCode).toBe(429);
  const body: { error: string; message: string; retryAfter: number } = res.json();
  expect(body.error).toBe('RATE_LIMITED');
  expect(body.retryAfter).toBeGreaterThan(0);
  expect(body.retryAfter).toBeLessThanOrEqual(15 * 60);
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

describe('sign-in attempts', () => {
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
