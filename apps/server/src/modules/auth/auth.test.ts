import { MSG } from '@coffer/shared';
import {
  call,
  completeTwoFactor,
  createTestApp,
  databaseText,
  errorOf,
  mailsTo,
  newSession,
  promotedCustomer,
  type SignedInUser,
  STRONG_PASSWORD,
  sessionCookie,
  sessionWorks,
  signIn,
  signUp,
  signUpAndSignIn,
  type TestApp,
  verificationToken,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { legacyPasswordHash } from '@server-test/legacy-password';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

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

let n = 0;
const freshEmail = () => `customer-${++n}@example.com`;
const verifyEmail = (token: string) =>
  call(t, { method: 'POST', url: '/api/auth/verify-email', body: { token } });

describe('sign-up and e-mail verification', () => {
  it('creates an unverified account, mails a link, and the link verifies it', async () => {
    const email = 'new.customer@example.com';
    const up = await signUp(t, 'New.Customer@Example.com');
    expect(up.statusCode).toBe(200);

    const early = await signIn(t, email, STRONG_PASSWORD);
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toBe('EMAIL_NOT_VERIFIED');

    const token = verificationToken(t, email);
    expect((await verifyEmail(token)).statusCode).toBe(200);
    // A link works once.
    const again = await withoutChange(t, () => verifyEmail(token));
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toEqual({ error: 'NOT_FOUND', message: MSG.verificationLinkInvalid });

    const res = await signIn(t, email, STRONG_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().session.twoFactor).toEqual({
      required: true,
      enabled: false,
      verified: false,
    });
    expect(sessionCookie(res)).toMatch(/^coffer_session=/);
  });

  it('refuses a weak password with the spec message and creates nothing', async () => {
    const res = await withoutChange(t, () => signUp(t, 'weak@example.com', 'abcdefg1'));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(MSG.passwordRule);
  });

  it.each([
    ['shorter than 8 characters', 'Abc123', 'Password must be at least 8 characters long.'],
    [
      'a very common password',
      'Password1',
      'This is a commonly used password. Add more words that are less common.',
    ],
    [
      'made of the e-mail address',
      'Guessable.Person@example.com1',
      'Passwords that contain your e-mail address or name are easy to guess. Add more words that are less common.',
    ],
  ])(
    'refuses a new password %s, says why, and creates nothing',
    async (_why, password, message) => {
      const email = 'guessable.person@example.com';
      const res = await withoutChange(t, () => signUp(t, email, password));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
      expect(mailsTo(t, email)).toHaveLength(0);
    },
  );

  it('answers a sign-up with a taken address exactly as a new one, mails the owner, and creates nothing', async () => {
    const email = freshEmail();
    const first = await signUp(t, email);
    // The notice to the owner is an outbox row: the mail is checked below, the rest here.
    const before = await databaseText(t, ['rate_limits', 'outbox']);
    const mailsBefore = mailsTo(t, email).length;

    const again = await signUp(t, email.toUpperCase(), 'Another-Pass-2');
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    // No second account, and the first keeps its password.
    expect(await databaseText(t, ['rate_limits', 'outbox'])).toEqual(before);
    expect((await signIn(t, email, 'Another-Pass-2')).json().error).toBe('INVALID_CREDENTIALS');

    const notices = mailsTo(t, email).slice(mailsBefore);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('Subject: Someone tried to sign up to Coffer with your e-mail');
    expect(notices[0]).not.toContain('/verify-email?');
  });

  it('lets no unverified account sign in, and opens no session for it', async () => {
    const email = freshEmail();
    await signUp(t, email);
    const res = await withoutChange(t, () => signIn(t, email, STRONG_PASSWORD));
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toEqual({ error: 'EMAIL_NOT_VERIFIED', message: MSG.emailNotVerified });
    expect(res.cookies).toHaveLength(0);
  });

  it('mails a new working link on request, and answers the same for other addresses without mailing', async () => {
    const email = freshEmail();
    await signUp(t, email);
    const firstToken = verificationToken(t, email);

    const resend = (address: string) =>
      call(t, { method: 'POST', url: '/api/auth/resend-verification', body: { email: address } });
    expect((await resend(email)).statusCode).toBe(200);
    const secondToken = verificationToken(t, email);
    expect(secondToken).not.toBe(firstToken);
    // The link of the earlier mail no longer works: only the newest one does.
    const stale = await withoutChange(t, () => verifyEmail(firstToken));
    expect(stale.statusCode).toBe(404);
    expect(errorOf(stale)).toEqual({ error: 'NOT_FOUND', message: MSG.verificationLinkInvalid });
    expect((await signIn(t, email, STRONG_PASSWORD)).json().error).toBe('EMAIL_NOT_VERIFIED');
    expect((await verifyEmail(secondToken)).statusCode).toBe(200);
    expect((await signIn(t, email, STRONG_PASSWORD)).statusCode).toBe(200);

    for (const address of [email, 'nobody@example.com']) {
      const res = await withoutChange(t, () => resend(address));
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('sign-in and sign-out', () => {
  let user: SignedInUser;
  beforeAll(async () => {
    user = await signUpAndSignIn(t, freshEmail());
  });

  it('refuses a wrong password, or an unknown address, with one message and no session', async () => {
    for (const [email, password] of [
      [user.email, 'Wrong-Password-1'],
      ['nobody@example.com', STRONG_PASSWORD],
    ] as const) {
      const res = await withoutChange(t, () => signIn(t, email, password));
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({
        error: 'INVALID_CREDENTIALS',
        message: 'Invalid email or password.',
      });
      expect(res.cookies).toHaveLength(0);
    }
  });

  it('treats the e-mail address case-insensitively', async () => {
    const res = await signIn(t, `  ${user.email.toUpperCase()} `, STRONG_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().session.user).toMatchObject({ id: user.userId, email: user.email });
  });

  it('ends the session at sign-out: the old cookie is refused afterwards', async () => {
    const cookie = await newSession(t, user);
    const out = await call(t, { method: 'POST', url: '/api/auth/sign-out', cookie });
    expect(out.statusCode).toBe(200);
    expect(out.headers['set-cookie']).toMatch(/coffer_session=;.*Expires=Thu, 01 Jan 1970/);

    expect((await call(t, { url: '/api/2fa/status', cookie })).statusCode).toBe(401);
    expect((await call(t, { url: '/api/session', cookie })).json()).toEqual({ session: null });
    // Other devices stay signed in.
    expect(await sessionWorks(t, user.cookie)).toBe(true);
  });

  it('gives a new session id at every sign-in and ends the one the browser had', async () => {
    const before = await newSession(t, user);
    const res = await call(t, {
      method: 'POST',
      url: '/api/auth/sign-in',
      cookie: before,
      body: { email: user.email, password: STRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const after = sessionCookie(res);
    expect(after).not.toBe(before);
    expect(await sessionWorks(t, before)).toBe(false);
    expect(await sessionWorks(t, after)).toBe(true);
  });
});

describe('the first session of an account', () => {
  const sessionOf = async (cookie: string) =>
    (await call(t, { url: '/api/session', cookie })).json().session;

  it('is told as the first sign-in through 2FA setup; every later session is not', async () => {
    const first = await signUpAndSignIn(t, freshEmail());
    expect((await sessionOf(first.cookie)).firstSignIn).toBe(true);
    // Passing the second factor keeps the session (a new token, the same sign-in).
    const verified = await completeTwoFactor(t, first);
    expect((await sessionOf(verified.cookie)).firstSignIn).toBe(true);

    await call(t, { method: 'POST', url: '/api/auth/sign-out', cookie: verified.cookie });
    const again = await signIn(t, first.email, STRONG_PASSWORD);
    expect(again.json().session.firstSignIn).toBe(false);
    expect((await sessionOf(sessionCookie(again))).firstSignIn).toBe(false);
  });

  it('is not counted by a refused attempt: a wrong password leaves the next sign-in the first', async () => {
    const email = freshEmail();
    await signUp(t, email);
    await verifyEmail(verificationToken(t, email));
    expect((await signIn(t, email, 'Wrong-Password-1')).statusCode).toBe(401);
    const res = await signIn(t, email, STRONG_PASSWORD);
    expect(res.json().session.firstSignIn).toBe(true);
  });

  it('stays the first while it lasts, even when the account signs in elsewhere meanwhile', async () => {
    const user = await signUpAndSignIn(t, freshEmail());
    const second = await newSession(t, user);
    expect((await sessionOf(user.cookie)).firstSignIn).toBe(true);
    expect((await sessionOf(second)).firstSignIn).toBe(false);
  });
});

describe('password reset with the recovery phrase', () => {
  const NEW_PASSWORD = 'Brand-New-Pass-7';
  const resetPassword = (recoveryPhrase: string, newPassword = NEW_PASSWORD) =>
    call(t, {
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { recoveryPhrase, newPassword },
    });

  it('sets the new password, signs out every device and tells the user by mail', async () => {
    const user = await verifiedCustomer(t, freshEmail());
    const otherDevice = await newSession(t, user);
    const phrase = user.seedPhrase ?? '';
    expect(phrase.split(' ')).toHaveLength(12);

    // Typed loosely, as a person would: case and spacing do not matter.
    const res = await resetPassword(`  ${phrase.toUpperCase().replaceAll(' ', '   ')} `);
    expect(res.statusCode).toBe(200);

    expect((await signIn(t, user.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(t, user.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect(await sessionWorks(t, user.cookie)).toBe(false);
    expect(await sessionWorks(t, otherDevice)).toBe(false);
    expect(mailsTo(t, user.email).at(-1)).toContain('Subject: Your Coffer password was reset');
  });

  it("refuses a phrase that is not the user's, and changes nothing", async () => {
    const user = await verifiedCustomer(t, freshEmail());
    const wrong =
      'abandon ability able about above absent absorb abstract absurd abuse access accident';
    const res = await withoutChange(t, () => resetPassword(wrong));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      error: 'INVALID_RECOVERY_PHRASE',
      message: 'Invalid recovery phrase. Please check your 12-word phrase and try again.',
    });
    expect(await sessionWorks(t, user.cookie)).toBe(true);
  });

  it('refuses a phrase that is not 12 words, or a weak new password, with the spec messages', async () => {
    const user = await verifiedCustomer(t, freshEmail());
    const phrase = user.seedPhrase ?? '';
    const elevenWords = phrase.split(' ').slice(0, 11).join(' ');

    const short = await withoutChange(t, () => resetPassword(elevenWords));
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe(
      'Recovery phrase must contain exactly 12 words separated by spaces.',
    );
    const weak = await withoutChange(t, () => resetPassword(phrase, 'abc'));
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must be at least 8 characters long.');
  });

  it('refuses a guessable new password, saying why, and keeps the old one', async () => {
    const user = await verifiedCustomer(t, 'reset.person@example.com');
    const phrase = user.seedPhrase ?? '';
    for (const [password, message] of [
      ['Password1', 'This is a commonly used password. Add more words that are less common.'],
      [
        'Reset.Person2024',
        'Passwords that contain your e-mail address or name are easy to guess. Add more words that are less common.',
      ],
    ] as const) {
      const res = await withoutChange(t, () => resetPassword(phrase, password));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
    }
    expect(await sessionWorks(t, user.cookie)).toBe(true);
    expect((await signIn(t, user.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });
});

describe('staff and the recovery phrase', () => {
  it("answers an admin's phrase at password reset as a wrong one, changing nothing", async () => {
    // A customer made staff keeps the phrase they were given as a customer.
    const admin = await promotedCustomer(t);
    expect(admin.seedPhrase?.split(' ')).toHaveLength(12);
    const reset = (recoveryPhrase: string | null) =>
      call(t, {
        method: 'POST',
        url: '/api/auth/reset-password',
        body: { recoveryPhrase, newPassword: 'Brand-New-Pass-7' },
        ip: '198.51.100.7',
      });
    const wrong = await reset(
      'abandon ability able about above absent absorb abstract absurd abuse access accident',
    );
    const staff = await withoutChange(t, () => reset(admin.seedPhrase));
    expect(staff.statusCode).toBe(wrong.statusCode);
    expect(errorOf(staff)).toEqual(errorOf(wrong));
    expect(errorOf(staff)).toEqual({
      error: 'INVALID_RECOVERY_PHRASE',
      message: MSG.invalidRecoveryPhrase,
    });
    expect(await sessionWorks(t, admin.cookie)).toBe(true);
    expect((await signIn(t, admin.email, STRONG_PASSWORD)).statusCode).toBe(200);
  });
});

describe('password hashes from before scrypt N=2^17', () => {
  const storedHash = async (userId: string): Promise<string> => {
    const { rows } = await t.services.pool.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.password_hash ?? '';
  };

  it('keep working, and are rewritten with N=2^17 at the next successful sign-in only', async () => {
    const user = await signUpAndSignIn(t, freshEmail());
    const old = legacyPasswordHash(STRONG_PASSWORD);
    await t.services.pool.query('UPDATE users SET password_hash = $1 WHERE id = $2', [
      old,
      user.userId,
    ]);

    // A wrong password leaves the old hash as it is.
    const wrong = await withoutChange(t, () => signIn(t, user.email, 'Wrong-Password-1'));
    expect(wrong.statusCode).toBe(401);
    expect(await storedHash(user.userId)).toBe(old);

    expect((await signIn(t, user.email, STRONG_PASSWORD)).statusCode).toBe(200);
    const upgraded = await storedHash(user.userId);
    expect(upgraded).not.toBe(old);
    expect(upgraded.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);

    // The same password opens the account with the new hash, which stays as it is.
    expect((await signIn(t, user.email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect(await storedHash(user.userId)).toBe(upgraded);
    expect((await signIn(t, user.email, 'Wrong-Password-1')).statusCode).toBe(401);
  });
});
