import { MSG } from '@coffer/shared';
import { wordlist } from '@scure/bip39/wordlists/english.js';
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
  phraseWordsFor,
  promotedCustomer,
  type SignedInUser,
  sessionCookie,
  sessionWorks,
  signUpAndSignIn,
  type TestApp,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { totpAt } from '@server-test/totp-reference';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
  phraseCheck: number[] | null;
};

async function setup(cookie: string): Promise<Setup> {
  const res = await call(t, { method: 'POST', url: '/api/2fa/setup', cookie });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const cancel = (cookie: string) =>
  call(t, { method: 'POST', url: '/api/2fa/setup/cancel', cookie });
const enable = (cookie: string, code: string, phraseWords?: string[]) =>
  call(t, { method: 'POST', url: '/api/2fa/enable', cookie, body: { code, phraseWords } });
/** Turns on the setup with a current code and the words it asks for. */
const enableSetup = (cookie: string, s: Setup) =>
  enable(cookie, totpAt(s.secret, Date.now()), phraseWordsFor(s));
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

/** A word of the list that is not the phrase's word at that position. */
function otherWord(phrase: string, position: number): string {
  const word = phrase.split(' ')[position - 1];
  return wordlist.find((w) => w !== word) ?? 'zoo';
}

async function phraseAttempts(userId: string): Promise<number> {
  const { rows } = await t.services.pool.query<{ count: number }>(
    'SELECT count FROM rate_limits WHERE key = $1',
    [`phrase:account:${userId}`],
  );
  return rows[0]?.count ?? 0;
}

async function twoFactorEnabled(userId: string): Promise<boolean> {
  const { rows } = await t.services.pool.query<{ on: boolean }>(
    'SELECT two_factor_enabled AS on FROM user_profiles WHERE id = $1',
    [userId],
  );
  return rows[0]?.on ?? false;
}

const ANOTHER_PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';

describe('setting up two-factor authentication', () => {
  it('gives a secret for an authenticator app, ten 8-character backup codes, a new phrase and three of its positions to type back', async () => {
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
    const positions = first.phraseCheck ?? [];
    expect(positions).toHaveLength(3);
    expect(new Set(positions).size).toBe(3);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const p of positions) expect(p >= 1 && p <= 12).toBe(true);
  });

  it('shows the same secret, codes, phrase and positions again on every call (a reload) until it is confirmed', async () => {
    const user = await signUpAndSignIn(t);
    const first = await setup(user.cookie);
    const again = await setup(user.cookie);
    expect(again).toEqual(first);
    // Still no phrase of the account's own: it is stored when the setup is confirmed.
    const stored = await t.services.pool.query(
      'SELECT 1 FROM user_seed_phrases WHERE user_id = $1',
      [user.userId],
    );
    expect(stored.rows).toHaveLength(0);

    // The code of an authenticator that scanned the first QR code turns it on.
    const res = await enableSetup(user.cookie, first);
    expect(res.statusCode).toBe(200);
    expect(res.json().session.hasRecoveryPhrase).toBe(true);
  });

  it('gives parallel calls one and the same setup', async () => {
    const user = await signUpAndSignIn(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(t, { method: 'POST', url: '/api/2fa/setup', cookie: user.cookie }),
      ),
    );
    for (const res of answers) expect(res.statusCode).toBe(200);
    const [first, ...others] = answers.map((res) => res.json() as Setup);
    for (const other of others) expect(other).toEqual(first);
    if (!first) throw new Error('no setup');
    expect((await enableSetup(user.cookie, first)).statusCode).toBe(200);
  });

  it('cancelled, forgets the secret, codes and phrase: the next setup makes new ones', async () => {
    const user = await signUpAndSignIn(t);
    const cancelled = await setup(user.cookie);
    const res = await cancel(user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    // The cancelled setup can no longer be confirmed.
    const late = await withoutChange(t, () => enableSetup(user.cookie, cancelled));
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).error).toBe('CONFLICT');
    expect(errorOf(late).message).toContain('Start the setup again');

    const next = await setup(user.cookie);
    expect(next.secret).not.toBe(cancelled.secret);
    expect(next.backupCodes).not.toEqual(cancelled.backupCodes);
    expect(next.seedPhrase).not.toBe(cancelled.seedPhrase);
    expect(next.seedPhrase?.split(' ')).toHaveLength(12);
    const replayed = await withoutChange(t, () =>
      enable(user.cookie, totpAt(cancelled.secret, Date.now()), phraseWordsFor(next)),
    );
    expect(errorOf(replayed)).toEqual({
      error: 'INVALID_CODE',
      message: 'Invalid code. Please try again.',
    });
    expect((await enableSetup(user.cookie, next)).statusCode).toBe(200);
  });

  it('once 2FA is on, shows no setup and cancels none, changing nothing', async () => {
    const user = await verifiedCustomer(t);
    const shown = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/2fa/setup', cookie: user.cookie }),
    );
    expect(shown.statusCode).toBe(409);
    expect(errorOf(shown)).toEqual({
      error: 'CONFLICT',
      message: 'Two-factor authentication is already enabled.',
    });
    // Nor to a device of the account that has not passed 2FA yet.
    const device = await newSession(t, user);
    const fromDevice = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/2fa/setup', cookie: device }),
    );
    expect(fromDevice.statusCode).toBe(409);
    const res = await withoutChange(t, () => cancel(user.cookie));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).error).toBe('CONFLICT');
  });

  it('never shows a setup to another session of the account, whose own setup replaces it', async () => {
    const user = await signUpAndSignIn(t);
    const mine = await setup(user.cookie);
    // Someone else holding the password signs in while the customer is scanning the code.
    const other = await newSession(t, user);
    const theirs = await setup(other);
    expect(theirs.secret).not.toBe(mine.secret);
    expect(theirs.seedPhrase).not.toBe(mine.seedPhrase);
    expect(theirs.backupCodes).not.toEqual(mine.backupCodes);

    // The first device's setup is gone; it is told to start again, and nothing changes.
    const refused = await withoutChange(t, () => enableSetup(user.cookie, mine));
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toContain('Start the setup again');
    // Its next setup is a new one, and replaces the other's in turn.
    const fresh = await setup(user.cookie);
    expect([mine.secret, theirs.secret]).not.toContain(fresh.secret);
    expect((await withoutChange(t, () => enableSetup(other, theirs))).statusCode).toBe(409);
    expect((await enableSetup(user.cookie, fresh)).statusCode).toBe(200);
  });

  it('refuses wrong words of the phrase, naming their positions, and turns nothing on', async () => {
    const user = await signUpAndSignIn(t);
    const s = await setup(user.cookie);
    const phrase = s.seedPhrase ?? '';
    const [a, b, c] = s.phraseCheck ?? [];
    if (a === undefined || b === undefined || c === undefined) throw new Error('no positions');
    const right = phraseWordsFor(s);

    const twoWrong = [otherWord(phrase, a), right[1] ?? '', otherWord(phrase, c)];
    const res = await withoutChange(t, () =>
      enable(user.cookie, totpAt(s.secret, Date.now()), twoWrong),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      error: 'INVALID_RECOVERY_PHRASE',
      message: `Words ${a} and ${c} do not match your recovery phrase. Check them against what you wrote down.`,
    });
    // Counted on the phrase-check limit, as every phrase check is.
    expect(await phraseAttempts(user.userId)).toBe(1);

    const oneWrong = [right[0] ?? '', otherWord(phrase, b), right[2] ?? ''];
    const one = await withoutChange(t, () =>
      enable(user.cookie, totpAt(s.secret, Date.now()), oneWrong),
    );
    expect(errorOf(one).message).toBe(
      `Word ${b} does not match your recovery phrase. Check it against what you wrote down.`,
    );
    expect(await phraseAttempts(user.userId)).toBe(2);

    // Words left out are not a guess: a 400 naming what to type, counted nowhere.
    for (const words of [undefined, [right[0] ?? '', '', right[2] ?? '']]) {
      const missing = await withoutChange(t, () =>
        enable(user.cookie, totpAt(s.secret, Date.now()), words),
      );
      expect(missing.statusCode).toBe(400);
      expect(errorOf(missing).error).toBe('VALIDATION_FAILED');
      expect(errorOf(missing).message).toBe(
        words
          ? `Type word ${b} of your recovery phrase.`
          : `Type words ${a}, ${b} and ${c} of your recovery phrase.`,
      );
    }
    expect(await phraseAttempts(user.userId)).toBe(2);
    expect(await twoFactorEnabled(user.userId)).toBe(false);
    expect(await gateRefusal(t, user.cookie)).toBe('TWO_FACTOR_REQUIRED');

    // The setup is still the same, and the right words with the right code turn it on,
    // typed as people type them.
    expect(await setup(user.cookie)).toEqual(s);
    const typed = right.map((w) => ` ${w.toUpperCase()} `);
    const ok = await enable(user.cookie, totpAt(s.secret, Date.now()), typed);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().session.twoFactor).toEqual({ required: true, enabled: true, verified: true });
    // A right answer is no guess: the two wrong ones stay counted, this one is not.
    expect(await phraseAttempts(user.userId)).toBe(2);
    // The phrase shown is now the account's: it resets the password, for instance.
    expect(await t.services.phrases.matches(user.userId, phrase)).toBe(true);
  });

  it('checks the words before the code: right words with a wrong code turn nothing on', async () => {
    const user = await signUpAndSignIn(t);
    const s = await setup(user.cookie);
    const res = await withoutChange(t, () =>
      enable(user.cookie, wrongCode(s.secret), phraseWordsFor(s)),
    );
    expect(errorOf(res)).toEqual({
      error: 'INVALID_CODE',
      message: 'Invalid code. Please try again.',
    });
    expect(await phraseAttempts(user.userId)).toBe(0);
    expect(await twoFactorEnabled(user.userId)).toBe(false);
  });

  it('shows an admin no recovery phrase and asks for no words', async () => {
    const user = await signUpAndSignIn(t);
    await t.services.users.makeAdmin(user.userId);
    const s = await setup(user.cookie);
    expect(s.seedPhrase).toBeNull();
    expect(s.phraseCheck).toBeNull();
    expect(await setup(user.cookie)).toEqual(s);

    const res = await enable(user.cookie, totpAt(s.secret, Date.now()));
    expect(res.statusCode).toBe(200);
    expect(res.json().session.hasRecoveryPhrase).toBe(false);
    const { rows } = await t.services.pool.query(
      'SELECT 1 FROM user_seed_phrases WHERE user_id = $1',
      [user.userId],
    );
    expect(rows).toHaveLength(0);
  });

  it('turns on with a code from this setup only, marks the session verified and rotates its token', async () => {
    const user = await signUpAndSignIn(t);
    const replaced = await setup(user.cookie);
    expect((await cancel(user.cookie)).statusCode).toBe(200);
    const current = await setup(user.cookie);
    const words = phraseWordsFor(current);

    for (const code of [totpAt(replaced.secret, Date.now()), wrongCode(current.secret)]) {
      const refused = await withoutChange(t, () => enable(user.cookie, code, words));
      expect(refused.statusCode).toBe(400);
      expect(errorOf(refused)).toEqual({
        error: 'INVALID_CODE',
        message: 'Invalid code. Please try again.',
      });
    }

    const res = await enableSetup(user.cookie, current);
    expect(res.statusCode).toBe(200);
    expect(res.json().session.twoFactor).toEqual({ required: true, enabled: true, verified: true });
    const rotated = sessionCookie(res);
    expect(rotated).not.toBe(user.cookie);
    expect(await sessionWorks(t, user.cookie)).toBe(false);
    expect(await gateRefusal(t, rotated)).toBeNull();
    // Set up once: the setup is gone.
    expect((await withoutChange(t, () => enableSetup(rotated, current))).statusCode).toBe(409);
  });

  it('turns on once when the same confirmation is sent twice in parallel', async () => {
    const user = await signUpAndSignIn(t);
    const s = await setup(user.cookie);
    const code = totpAt(s.secret, Date.now());
    const answers = await Promise.all(
      [0, 1].map(() => enable(user.cookie, code, phraseWordsFor(s))),
    );
    // One turns it on; the other finds the setup gone (409), or its session token already
    // rotated by the first (401), whichever it reaches first.
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect([401, 409]).toContain(codes.find((c) => c !== 200));
    const { rows } = await t.services.pool.query(
      `SELECT (SELECT count(*)::int FROM backup_codes WHERE user_id = $1) AS codes,
              (SELECT count(*)::int FROM security_events WHERE user_id = $1 AND kind = 'two-factor-enabled') AS enabled,
              (SELECT count(*)::int FROM security_events WHERE user_id = $1 AND kind = 'phrase-created') AS phrases`,
      [user.userId],
    );
    expect(rows[0]).toEqual({ codes: 10, enabled: 1, phrases: 1 });
    expect(
      mailsTo(t, user.email).filter((m) => m.includes('is on for your Coffer account')),
    ).toHaveLength(1);
  });

  it('stores the secret, the backup codes and the phrase encrypted (the codes hashed once on), never in plain text', async () => {
    const user = await signUpAndSignIn(t);
    const pending = await setup(user.cookie);
    const secrets = [pending.secret, ...pending.backupCodes, pending.seedPhrase ?? 'no phrase'];
    const whilePending = JSON.stringify(await databaseText(t));
    for (const secret of secrets) expect(whilePending).not.toContain(secret);

    expect((await enableSetup(user.cookie, pending)).statusCode).toBe(200);
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
    const pending = await setup(fresh.cookie);
    const code = totpAt(pending.secret, Date.now());
    expect((await enable(fresh.cookie, code, phraseWordsFor(pending))).statusCode).toBe(200);

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
    // The account keeps its phrase: this setup shows none and asks for no words.
    const again = await setup(other);
    expect(again.seedPhrase).toBeNull();
    expect(again.phraseCheck).toBeNull();
    const enabled = await enable(other, totpAt(again.secret, Date.now()));
    expect(enabled.statusCode).toBe(200);
    // The device that set up the new factor carries on; the old one must sign in again.
    expect(await sessionWorks(t, sessionCookie(enabled))).toBe(true);
    expect(await sessionWorks(t, user.cookie)).toBe(false);
  });
});

describe('staff and the recovery phrase', () => {
  it("refuses to reset an admin's 2FA with a phrase, before looking at it", async () => {
    const admin = await promotedCustomer(t);
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
    const enabled = await enableSetup(lostAuthenticator, again);
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
