import { MSG } from '@coffer/shared';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeFor,
  createTestApp,
  databaseText,
  errorOf,
  gateRefusal,
  linkFromMail,
  mailsTo,
  newSession,
  type SignedInUser,
  sessionCookie,
  sessionWorks,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '../../../test/helpers';
import { totpAt } from '../../../test/totp-reference';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Setup = {
  otpauthUrl: string;
  secret: string;
  backupCodes: string[];
  seedPhrase: string | null;
};

async function setup(cookie: string): Promise<Setup> {
  const res = await call(t, { method: 'POST', url: '/api/2fa/setup', cookie });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const enable = (cookie: string, code: string) =>
  call(t, { method: 'POST', url: '/api/2fa/enable', cookie, body: { code } });
const verify = (cookie: string, body: { code: string } | { backupCode: string }) =>
  call(t, { method: 'POST', url: '/api/2fa/verify', cookie, body });
const disable = (cookie: string, code: string) =>
  call(t, { method: 'POST', url: '/api/2fa/disable', cookie, body: { code } });
const resetWithPhrase = (cookie: string, seedPhrase: string) =>
  call(t, { method: 'POST', url: '/api/2fa/reset-with-phrase', cookie, body: { seedPhrase } });

/** A code that is certainly not the current one for this secret (nor one step either side). */
function wrongCode(secret: string): string {
  const near = [-1, 0, 1].map((step) => totpAt(secret, Date.now() + step * 30_000));
  return ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c)) ?? '444444';
}

const ANOTHER_PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';

describe('setting up two-factor authentication', () => {
  it('gives a secret for an authenticator app, ten 8-character backup codes and, the first time only, the phrase', async () => {
    const user = await signUpAndSignIn(t);
    const first = await setup(user.cookie);

    expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(first.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(first.secret);
    expect(url.searchParams.get('issuer')).toBe('Coffer');
    expect(first.backupCodes).toHaveLength(10);
    expect(new Set(first.backupCodes).size).toBe(10);
    for (const code of first.backupCodes) expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const words = first.seedPhrase?.split(' ') ?? [];
    expect(words).toHaveLength(12);
    for (const word of words) expect(wordlist).toContain(word);

    const second = await setup(user.cookie);
    expect(second.seedPhrase).toBeNull();
    expect(second.secret).not.toBe(first.secret);
    expect(second.backupCodes).not.toEqual(first.backupCodes);
  });

  it('turns on with a code from the newest setup only, marks the session verified and rotates its token', async () => {
    const user = await signUpAndSignIn(t);
    const replaced = await setup(user.cookie);
    const current = await setup(user.cookie);

    for (const code of [totpAt(replaced.secret, Date.now()), wrongCode(current.secret)]) {
      const refused = await withoutChange(t, () => enable(user.cookie, code));
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused)).toEqual({
        error: 'INVALID_CODE',
        message: 'Invalid code. Please try again.',
      });
    }

    const res = await enable(user.cookie, totpAt(current.secret, Date.now()));
    expect(res.statusCode).toBe(200);
    expect(res.json().session.twoFactor).toEqual({ required: true, enabled: true, verified: true });
    const rotated = sessionCookie(res);
    expect(rotated).not.toBe(user.cookie);
    expect(await sessionWorks(t, user.cookie)).toBe(false);
    expect(await gateRefusal(t, rotated)).toBeNull();
  });

  it('stores the secret encrypted and the backup codes hashed, never in plain text', async () => {
    const user = await signUpAndSignIn(t);
    const pending = await setup(user.cookie);
    const secrets = [pending.secret, ...pending.backupCodes];
    const whilePending = JSON.stringify(await databaseText(t));
    for (const secret of secrets) expect(whilePending).not.toContain(secret);

    expect((await enable(user.cookie, totpAt(pending.secret, Date.now()))).statusCode).toBe(200);
    const whileEnabled = JSON.stringify(await databaseText(t));
    for (const secret of secrets) expect(whileEnabled).not.toContain(secret);
    // Ten hashes are there, for the ten codes.
    const { rows } = await t.services.pool.query(
      'SELECT code_hash FROM backup_codes WHERE user_id = $1',
      [user.userId],
    );
    expect(rows).toHaveLength(10);
  });
});

describe('verifying at sign-in', () => {
  let user: SignedInUser;
  beforeAll(async () => {
    user = await verifiedCustomer(t);
  });

  it('keeps a new device out until it passes the second factor', async () => {
    const cookie = await newSession(t, user);
    expect(await gateRefusal(t, cookie)).toBe('TWO_FACTOR_REQUIRED');
    const session = (await call(t, { url: '/api/session', cookie })).json().session;
    expect(session.twoFactor).toEqual({ required: true, enabled: true, verified: false });
  });

  it('accepts a code once: the code that turned 2FA on is refused on a new device', async () => {
    const fresh = await signUpAndSignIn(t);
    const { secret } = await setup(fresh.cookie);
    const code = totpAt(secret, Date.now());
    expect((await enable(fresh.cookie, code)).statusCode).toBe(200);

    const device = await newSession(t, fresh);
    const replay = await withoutChange(t, () => verify(device, { code }));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('INVALID_CODE');
    expect(await gateRefusal(t, device)).toBe('TWO_FACTOR_REQUIRED');
  });

  it('lets a device in with the next code and gives it a new session token', async () => {
    const before = await newSession(t, user);
    const res = await verify(before, { code: codeFor(user, 1) });
    expect(res.statusCode).toBe(200);
    expect(res.json().session.twoFactor.verified).toBe(true);
    const after = sessionCookie(res);
    expect(after).not.toBe(before);
    expect(await sessionWorks(t, before)).toBe(false);
    expect(await gateRefusal(t, after)).toBeNull();
  });

  it('accepts a backup code, as typed, once and never again', async () => {
    const backupCode = user.backupCodes[0] ?? '';
    const typed = `${backupCode.slice(0, 4).toLowerCase()}-${backupCode.slice(4)}`;

    const first = await verify(await newSession(t, user), { backupCode: typed });
    expect(first.statusCode).toBe(200);
    expect(await gateRefusal(t, sessionCookie(first))).toBeNull();

    const device = await newSession(t, user);
    const again = await withoutChange(t, () => verify(device, { backupCode }));
    expect(again.statusCode).toBe(400);
    expect(errorOf(again)).toEqual({
      error: 'INVALID_CODE',
      message: 'Invalid backup code. Please try again.',
    });
    expect(await gateRefusal(t, device)).toBe('TWO_FACTOR_REQUIRED');

    const status = await call(t, { url: '/api/2fa/status', cookie: sessionCookie(first) });
    expect(status.json()).toEqual({ enabled: true, required: true, backupCodesLeft: 9 });
  });
});

describe('turning two-factor authentication off', () => {
  it('needs a verified session and a current code; then the gate asks for a new setup', async () => {
    const user = await verifiedCustomer(t);
    const unverified = await newSession(t, user);
    const fromUnverified = await withoutChange(t, () => disable(unverified, codeFor(user, 1)));
    expect(fromUnverified.json().error).toBe('TWO_FACTOR_REQUIRED');

    const wrong = await withoutChange(t, () =>
      disable(user.cookie, wrongCode(user.totpSecret ?? '')),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('INVALID_CODE');

    expect((await disable(user.cookie, codeFor(user, 1))).statusCode).toBe(200);
    const status = await call(t, { url: '/api/2fa/status', cookie: user.cookie });
    expect(status.json()).toMatchObject({ enabled: false, required: true });
    expect(await gateRefusal(t, user.cookie)).toBe('TWO_FACTOR_REQUIRED');
    const { rows } = await t.services.pool.query(
      `SELECT (SELECT count(*)::int FROM user_two_factor WHERE user_id = $1) AS secrets,
              (SELECT count(*)::int FROM backup_codes WHERE user_id = $1) AS codes`,
      [user.userId],
    );
    expect(rows[0]).toEqual({ secrets: 0, codes: 0 });
  });
});

describe('turning two-factor authentication on again', () => {
  it('ends every other session of the account, whoever set the new factor up', async () => {
    const user = await verifiedCustomer(t);
    expect((await disable(user.cookie, codeFor(user, 1))).statusCode).toBe(200);
    // The old device, and a second one that signed in with the password only.
    const other = await newSession(t, user);
    const setup = await call(t, { method: 'POST', url: '/api/2fa/setup', cookie: other });
    const enable = await call(t, {
      method: 'POST',
      url: '/api/2fa/enable',
      cookie: other,
      body: { code: totpAt(setup.json().secret, Date.now()) },
    });
    expect(enable.statusCode).toBe(200);
    // The device that set up the new factor carries on; the old one must sign in again.
    expect(await sessionWorks(t, sessionCookie(enable))).toBe(true);
    expect(await sessionWorks(t, user.cookie)).toBe(false);
  });
});

describe('staff and the recovery phrase', () => {
  it("refuses to reset an admin's 2FA with a phrase, before looking at it", async () => {
    const admin = await verifiedAdmin(t);
    const res = await withoutChange(t, () => resetWithPhrase(admin.cookie, admin.seedPhrase ?? ''));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'FORBIDDEN', message: MSG.staffNoPhraseRecovery });
    expect(await sessionWorks(t, admin.cookie)).toBe(true);
  });
});

describe('resetting two-factor authentication with the recovery phrase', () => {
  it('refuses a wrong phrase and changes nothing', async () => {
    const user = await verifiedCustomer(t);
    const lostAuthenticator = await newSession(t, user);
    const res = await withoutChange(t, () => resetWithPhrase(lostAuthenticator, ANOTHER_PHRASE));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      error: 'INVALID_RECOVERY_PHRASE',
      message: 'Invalid recovery phrase. Please check your 12-word phrase and try again.',
    });
    expect(await sessionWorks(t, user.cookie)).toBe(true);
  });

  it('turns 2FA off, signs out every other device, mails the user and makes this one set up again', async () => {
    const user = await verifiedCustomer(t);
    const otherDevice = await newSession(t, user);
    const lostAuthenticator = await newSession(t, user);

    const res = await resetWithPhrase(lostAuthenticator, (user.seedPhrase ?? '').toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().session.twoFactor).toEqual({
      required: true,
      enabled: false,
      verified: false,
    });

    expect(await sessionWorks(t, user.cookie)).toBe(false);
    expect(await sessionWorks(t, otherDevice)).toBe(false);
    expect(await sessionWorks(t, lostAuthenticator)).toBe(true);
    expect(await gateRefusal(t, lostAuthenticator)).toBe('TWO_FACTOR_REQUIRED');
    expect(mailsTo(t, user.email).at(-1)).toContain(
      'Subject: Two-factor authentication was reset on your Coffer account',
    );

    // The phrase that was used is burnt: the new setup gives a new one, and the old one
    // no longer works.
    const again = await setup(lostAuthenticator);
    expect(again.seedPhrase?.split(' ')).toHaveLength(12);
    expect(again.seedPhrase).not.toBe(user.seedPhrase);
    const enabled = await enable(lostAuthenticator, totpAt(again.secret, Date.now()));
    expect(enabled.statusCode).toBe(200);
    const cookie = sessionCookie(enabled);
    expect(await gateRefusal(t, cookie)).toBeNull();
    expect((await resetWithPhrase(cookie, user.seedPhrase ?? '')).statusCode).not.toBe(200);
    // A security hold is on, and the mail carries the "This wasn't me" link.
    const hold = await call(t, { url: '/api/security/hold', cookie });
    // The setup's new phrase replaces a burnt one: it waits to be typed back (S10).
    expect(hold.json()).toMatchObject({ onHold: true, needsNewPhrase: true, frozen: false });
    const confirmed = await call(t, {
      method: 'POST',
      url: '/api/recovery-phrase/confirm',
      cookie,
      body: { phrase: again.seedPhrase },
    });
    expect(confirmed.statusCode).toBe(200);
    const held = await call(t, { url: '/api/security/hold', cookie });
    expect(held.json()).toMatchObject({ onHold: true, needsNewPhrase: false });
    expect(
      linkFromMail(mailsTo(t, user.email).findLast((m) => m.includes('reset on your')) ?? ''),
    ).toMatch(/\/freeze\?token=/);
  });
});
