import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  mailsTo,
  newSession,
  type SignedInUser,
  sessionCookie,
  sessionWorks,
  signIn,
  type TestApp,
  tableText,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const NEW_PASSWORD = 'Walnut-Harbor-Lantern-42';

type Listed = {
  id: string;
  device: string;
  ip: string | null;
  signedInAt: string;
  lastSeenAt: string;
  current: boolean;
};

const list = (cookie: string) => call(t, { url: '/api/sessions', cookie });
async function sessionsOf(cookie: string): Promise<Listed[]> {
  const res = await list(cookie);
  expect(res.statusCode).toBe(200);
  return res.json().sessions;
}
const signOut = (cookie: string, id: string) =>
  call(t, { method: 'DELETE', url: `/api/sessions/${id}`, cookie });
const signOutOthers = (cookie: string) =>
  call(t, { method: 'POST', url: '/api/sessions/sign-out-others', cookie, body: {} });
/** The change as the Settings form sends it: a code, when given, is its step-up. */
const changePassword = (
  cookie: string,
  { code, ...body }: { currentPassword: string; newPassword: string; code?: string },
) =>
  call(t, {
    method: 'POST',
    url: '/api/account/password',
    cookie,
    body: code === undefined ? body : { ...body, stepUp: { code } },
  });

/** A sign-in from a given browser and address; the new session's cookie. */
async function signInFrom(user: SignedInUser, userAgent: string, ip: string, password?: string) {
  const res = await call(t, {
    method: 'POST',
    url: '/api/auth/sign-in',
    body: { email: user.email, password: password ?? user.password },
    ip,
    headers: { 'user-agent': userAgent },
  });
  expect(res.statusCode).toBe(200);
  return sessionCookie(res);
}

/** A customer with 2FA on, and a second device (Firefox on Linux) that passed it too. */
async function customerOnTwoDevices() {
  const user = await verifiedCustomer(t);
  const other = await signInFrom(user, FIREFOX_LINUX, '203.0.113.7');
  // The second device passes 2FA with a backup code, keeping the next authenticator step free.
  const backupCode = user.backupCodes.pop() ?? '';
  const verified = await call(t, {
    method: 'POST',
    url: '/api/2fa/verify',
    cookie: other,
    body: { backupCode },
  });
  expect(verified.statusCode).toBe(200);
  return { user, other: sessionCookie(verified) };
}

describe('GET /api/sessions', () => {
  it("lists the customer's own sessions with device, address and times, this one marked", async () => {
    const { user, other } = await customerOnTwoDevices();
    await verifiedCustomer(t); // someone else's sessions must not show
    const sessions = await sessionsOf(user.cookie);
    expect(sessions.map((s) => s.current)).toEqual([true, false]);
    const current = sessions.find((s) => s.current);
    const firefox = sessions.find((s) => !s.current);
    expect(current?.ip).toBe('127.0.0.1');
    expect(firefox).toMatchObject({ device: 'Firefox on Linux', ip: '203.0.113.7' });
    for (const s of sessions) {
      expect(Number.isNaN(Date.parse(s.signedInAt))).toBe(false);
      expect(Number.isNaN(Date.parse(s.lastSeenAt))).toBe(false);
      // The id is the row's, never the cookie's token.
      expect(user.cookie).not.toContain(s.id);
      expect(other).not.toContain(s.id);
      expect(Object.keys(s).sort()).toEqual(
        ['current', 'device', 'id', 'ip', 'lastSeenAt', 'signedInAt'].sort(),
      );
    }
    // The other device sees the same two, with itself as the current one.
    const seenThere = await sessionsOf(other);
    expect(seenThere.find((s) => s.current)?.id).toBe(firefox?.id);
  });
});

describe('DELETE /api/sessions/:id', () => {
  it('signs out another of the customer’s devices; this one stays signed in', async () => {
    const { user, other } = await customerOnTwoDevices();
    const target = (await sessionsOf(user.cookie)).find((s) => !s.current);
    const res = await signOut(user.cookie, target?.id ?? '');
    expect(res.statusCode).toBe(200);
    expect(await sessionWorks(t, other)).toBe(false);
    expect(await sessionWorks(t, user.cookie)).toBe(true);
    expect((await sessionsOf(user.cookie)).map((s) => s.current)).toEqual([true]);
  });

  it('signs out this device when it is the one chosen, and clears the cookie', async () => {
    const { user, other } = await customerOnTwoDevices();
    const current = (await sessionsOf(user.cookie)).find((s) => s.current);
    const res = await signOut(user.cookie, current?.id ?? '');
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === 'coffer_session');
    expect(cleared?.value).toBe('');
    expect(await sessionWorks(t, user.cookie)).toBe(false);
    expect(await sessionWorks(t, other)).toBe(true);
  });

  it("answers 404 for another customer's session and leaves it alone", async () => {
    const me = await verifiedCustomer(t);
    const someoneElse = await verifiedCustomer(t);
    const theirs = (await sessionsOf(someoneElse.cookie))[0];
    const res = await withoutChange(t, () => signOut(me.cookie, theirs?.id ?? ''));
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).message).toBe('This session has already ended.');
    expect(await sessionWorks(t, someoneElse.cookie)).toBe(true);
  });

  it('answers 400 for an id that is not a session id', async () => {
    const me = await verifiedCustomer(t);
    const res = await withoutChange(t, () => signOut(me.cookie, 'not-a-uuid'));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toContain('This is not a session id.');
  });
});

describe('POST /api/sessions/sign-out-others', () => {
  it('ends every other session of the customer, says how many, and keeps this one', async () => {
    const { user, other } = await customerOnTwoDevices();
    const third = await newSession(t, user); // before its 2FA, still a session
    const bystander = await verifiedCustomer(t);
    const res = await signOutOthers(user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ signedOut: 2 });
    expect(await sessionWorks(t, other)).toBe(false);
    expect(await sessionWorks(t, third)).toBe(false);
    expect(await sessionWorks(t, user.cookie)).toBe(true);
    expect(await sessionWorks(t, bystander.cookie)).toBe(true);
    // Nothing left to end: a second call ends none.
    expect((await signOutOthers(user.cookie)).json()).toEqual({ signedOut: 0 });
  });
});

describe('POST /api/account/password', () => {
  it('changes the password with a fresh code, signs out the other devices and mails the customer', async () => {
    const { user, other } = await customerOnTwoDevices();
    const res = await changePassword(user.cookie, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
      code: codeFor(user, 1),
    });
    expect(res.statusCode).toBe(200);
    expect(await sessionWorks(t, user.cookie)).toBe(true);
    expect(await sessionWorks(t, other)).toBe(false);
    expect((await signIn(t, user.email, user.password)).statusCode).toBe(401);
    expect((await signIn(t, user.email, NEW_PASSWORD)).statusCode).toBe(200);
    const mail = mailsTo(t, user.email).find((m) =>
      m.includes('Subject: Your Coffer password was changed'),
    );
    expect(mail).toBeDefined();
    const text = mail?.replace(/=\r?\n/g, '') ?? '';
    expect(text).toContain('Address: 127.0.0.1');
    expect(text).toContain('Device: Unknown device');
    expect(text).toMatch(/Time: \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);
    expect(text).toContain('If this was not you');
  });

  it('accepts an unused backup code instead, once', async () => {
    const user = await verifiedCustomer(t);
    const backupCode = user.backupCodes[0] ?? '';
    const first = await changePassword(user.cookie, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
      code: backupCode.toLowerCase(),
    });
    expect(first.statusCode).toBe(200);
    const again = await withoutChange(t, () =>
      changePassword(user.cookie, {
        currentPassword: NEW_PASSWORD,
        newPassword: 'Copper-Meadow-Violin-77',
        code: backupCode,
      }),
    );
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).error).toBe('INVALID_CODE');
  });

  it('refuses a wrong current password, changing nothing', async () => {
    const user = await verifiedCustomer(t);
    const res = await withoutChange(t, () =>
      changePassword(user.cookie, {
        currentPassword: 'Not-The-Password-9',
        newPassword: NEW_PASSWORD,
        code: codeFor(user, 1),
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe('Your current password is incorrect.');
    // The code was not spent on the refused change.
    expect(
      (
        await changePassword(user.cookie, {
          currentPassword: user.password,
          newPassword: NEW_PASSWORD,
          code: codeFor(user, 1),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses a wrong code and a missing one, changing nothing', async () => {
    const user = await verifiedCustomer(t);
    const near = [-1, 0, 1].map((step) => codeFor(user, step));
    const wrong = ['000000', '111111', '222222'].find((c) => !near.includes(c)) ?? '333333';
    const res = await withoutChange(t, () =>
      changePassword(user.cookie, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        code: wrong,
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe(
      'Invalid code. Enter a current code from your authenticator app or an unused backup code.',
    );
    const missing = await withoutChange(t, () =>
      changePassword(user.cookie, { currentPassword: user.password, newPassword: NEW_PASSWORD }),
    );
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe(
      'Enter the 6-digit code from your authenticator app or one of your backup codes, or use a passkey.',
    );
  });

  it('refuses the code that was just used to sign in', async () => {
    const user = await verifiedCustomer(t);
    const fresh = await newSession(t, user);
    const signInCode = codeFor(user, 1);
    const verified = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie: fresh,
      body: { code: signInCode },
    });
    expect(verified.statusCode).toBe(200);
    const res = await withoutChange(t, () =>
      changePassword(sessionCookie(verified), {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        code: signInCode,
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toBe('INVALID_CODE');
  });

  it('refuses a guessable new password, one breaking the rule, and the current one again', async () => {
    const user = await verifiedCustomer(t);
    const cases: [string, string][] = [
      ['Password123', 'This is a commonly used password.'],
      ['short1A', 'Password must be at least 8 characters long.'],
      [user.password, 'Choose a new password that is different from your current one.'],
    ];
    for (const [newPassword, message] of cases) {
      const res = await withoutChange(t, () =>
        changePassword(user.cookie, {
          currentPassword: user.password,
          newPassword,
          code: codeFor(user, 1),
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toContain(message);
    }
  });

  it('stops guessing the current password after 10 wrong tries, even with the right one', async () => {
    const user = await verifiedCustomer(t);
    for (let i = 0; i < 10; i++) {
      const res = await changePassword(user.cookie, {
        currentPassword: `Wrong-guess-${i}`,
        newPassword: NEW_PASSWORD,
        code: codeFor(user, 1),
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await withoutChange(t, () =>
      changePassword(user.cookie, {
        currentPassword: user.password,
        newPassword: NEW_PASSWORD,
        code: codeFor(user, 1),
      }),
    );
    expect(res.statusCode).toBe(429);
    expect(errorOf(res).error).toBe('RATE_LIMITED');
  });
});

describe('the new-device mail', () => {
  const newSignInMails = (email: string) =>
    mailsTo(t, email).filter((m) => m.includes('Subject: New sign-in to your Coffer account'));

  it('is sent once for a new device and address, not for a repeat sign-in from it', async () => {
    const user = await verifiedCustomer(t);
    // The account's first sign-in (in verifiedCustomer) and a repeat from the same browser.
    await newSession(t, user);
    expect(newSignInMails(user.email)).toHaveLength(0);

    await signInFrom(user, CHROME_WINDOWS, '192.0.2.44');
    const mails = newSignInMails(user.email);
    expect(mails).toHaveLength(1);
    const text = mails[0]?.replace(/=\r?\n/g, '') ?? '';
    expect(text).toContain('Device: Chrome on Windows');
    expect(text).toContain('Address: 192.0.2.44');
    expect(text).toContain('If this was not you');

    // Same device and address again, even after every session there ended: no new mail.
    await signOutOthers(user.cookie);
    await signInFrom(user, CHROME_WINDOWS, '192.0.2.44');
    expect(newSignInMails(user.email)).toHaveLength(1);
    // The same browser from another address is news again.
    await signInFrom(user, CHROME_WINDOWS, '192.0.2.45');
    expect(newSignInMails(user.email)).toHaveLength(2);
  });

  it('keeps only a keyed hash of the device, never the address in clear', async () => {
    const user = await verifiedCustomer(t);
    await signInFrom(user, FIREFOX_LINUX, '198.18.0.99');
    expect(await tableText(t, 'known_devices')).not.toContain('198.18.0.99');
  });
});
