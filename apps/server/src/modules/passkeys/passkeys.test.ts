import { STEP_UP_MSG } from '@coffer/shared';
import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  gateRefusal,
  mailsTo,
  newSession,
  type SignedInUser,
  sessionCookie,
  type TestApp,
  tableText,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { SoftAuthenticator } from '@server-test/soft-authenticator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSKEY_MSG } from './passkeys.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Options = { challenge: string; rp: { id: string }; rpId: string };

async function options(cookie: string, url: string): Promise<Options> {
  const res = await call(t, { method: 'POST', url, cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().options;
}

const registerOptions = (cookie: string) => options(cookie, '/api/passkeys/register/options');
const assertOptions = (cookie: string) => options(cookie, '/api/passkeys/assert/options');

const register = (cookie: string, name: string, credential: unknown) =>
  call(t, { method: 'POST', url: '/api/passkeys/register', cookie, body: { name, credential } });
const signInWith = (cookie: string, assertion: unknown) =>
  call(t, { method: 'POST', url: '/api/passkeys/sign-in', cookie, body: { assertion } });
const list = async (cookie: string) => {
  const res = await call(t, { url: '/api/passkeys', cookie });
  expect(res.statusCode).toBe(200);
  return res.json().passkeys as { id: string; name: string; lastUsedAt: string | null }[];
};
/** The user's security log entries, oldest first, as stored. */
const securityEvents = async (userId: string) =>
  (
    await t.services.pool.query<{ kind: string; detail: string | null }>(
      'SELECT kind, detail FROM security_events WHERE user_id = $1 ORDER BY id',
      [userId],
    )
  ).rows;
/** A code that is certainly not one the server would accept now (nor a step either side). */
function wrongCode(user: SignedInUser): string {
  const near = [-1, 0, 1, 2].map((step) => codeFor(user, step));
  return (
    ['000000', '111111', '222222', '333333', '444444'].find((c) => !near.includes(c)) ?? '555555'
  );
}

const remove = (cookie: string, id: string, body: unknown) =>
  call(t, { method: 'POST', url: `/api/passkeys/${id}/remove`, cookie, body });

/** A verified customer with one passkey on a software authenticator. */
async function withPasskey(name = 'Laptop') {
  const user = await verifiedCustomer(t);
  const key = new SoftAuthenticator();
  const res = await register(user.cookie, name, key.create(await registerOptions(user.cookie)));
  expect(res.statusCode, res.body).toBe(200);
  return { user, key, passkeyId: res.json().passkey.id as string };
}

describe('registering a passkey', () => {
  it('adds it to the list and mails the owner', async () => {
    const { user } = await withPasskey('Work laptop');
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Work laptop']);
    const mail = mailsTo(t, user.email).find((m) =>
      m.includes('A passkey was added to your Coffer account'),
    );
    expect(mail).toContain('Work laptop');
    expect(mail).toContain('Address: 127.0.0.1');
  });

  it('needs a session that passed 2FA', async () => {
    const { user } = await withPasskey();
    const fresh = await newSession(t, user);
    const res = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/passkeys/register/options', cookie: fresh }),
    );
    expect(errorOf(res).error).toBe('TWO_FACTOR_REQUIRED');
  });

  it('refuses an answer made for another origin or relying party, and changes nothing', async () => {
    const user = await verifiedCustomer(t);
    const key = new SoftAuthenticator();
    const opts = await registerOptions(user.cookie);
    for (const ceremony of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const res = await withoutChange(t, () =>
        register(user.cookie, 'Phone', key.create(opts, ceremony)),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(PASSKEY_MSG.notVerified);
    }
    expect(await list(user.cookie)).toEqual([]);
  });

  it('accepts an answer once', async () => {
    const user = await verifiedCustomer(t);
    const key = new SoftAuthenticator();
    const answer = key.create(await registerOptions(user.cookie));
    expect((await register(user.cookie, 'Phone', answer)).statusCode).toBe(200);
    const again = await withoutChange(t, () => register(user.cookie, 'Phone again', answer));
    expect(again.statusCode).toBe(409);
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Phone']);
  });

  it('refuses a name that is empty, and a credential someone already registered', async () => {
    const { key } = await withPasskey();
    const other = await verifiedCustomer(t);
    const opts = await registerOptions(other.cookie);
    const empty = await withoutChange(t, () => register(other.cookie, '  ', key.create(opts)));
    expect(empty.statusCode).toBe(400);
    const taken = await withoutChange(t, () => register(other.cookie, 'Mine', key.create(opts)));
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).message).toBe(PASSKEY_MSG.alreadyRegistered);
  });
});

describe('signing in with a passkey', () => {
  it('passes the second factor of a password-only session, like a code', async () => {
    const { user, key } = await withPasskey();
    const fresh = await newSession(t, user);
    expect(await gateRefusal(t, fresh)).toBe('TWO_FACTOR_REQUIRED');
    const status = await call(t, { url: '/api/passkeys/sign-in', cookie: fresh });
    expect(status.json()).toEqual({ available: true, passkeyOnly: false });
    const res = await signInWith(fresh, key.get(await assertOptions(fresh)));
    expect(res.statusCode, res.body).toBe(200);
    const rotated = sessionCookie(res);
    expect(rotated).not.toBe(fresh);
    expect(await gateRefusal(t, rotated)).toBeNull();
    // The old token is gone with the rotation.
    expect(await gateRefusal(t, fresh)).toBe('UNAUTHENTICATED');
    const [passkey] = await list(rotated);
    expect(passkey?.lastUsedAt).not.toBeNull();
    // The log names the factors: the password first, then the passkey.
    expect((await securityEvents(user.userId)).slice(-2)).toEqual([
      { kind: 'sign-in-password-accepted', detail: null },
      { kind: 'sign-in', detail: 'Password and passkey' },
    ]);
  });

  it('tells the sign-in screen when the account has no passkey', async () => {
    const user = await verifiedCustomer(t);
    const fresh = await newSession(t, user);
    const status = await call(t, { url: '/api/passkeys/sign-in', cookie: fresh });
    expect(status.json()).toEqual({ available: false, passkeyOnly: false });
  });

  it('refuses a replayed answer, in the same session and in another', async () => {
    const { user, key } = await withPasskey();
    const first = await newSession(t, user);
    const answer = key.get(await assertOptions(first));
    const ok = await signInWith(first, answer);
    expect(ok.statusCode).toBe(200);
    const rotated = sessionCookie(ok);
    const same = await withoutChange(t, () => signInWith(rotated, answer));
    expect(same.statusCode).toBe(400);
    expect(errorOf(same).message).toBe(PASSKEY_MSG.staleChallenge);

    const second = await newSession(t, user);
    await assertOptions(second);
    const other = await withoutChange(t, () => signInWith(second, answer));
    expect(other.statusCode).toBe(400);
    expect(await gateRefusal(t, second)).toBe('TWO_FACTOR_REQUIRED');
  });

  it('refuses an answer for another origin or relying party, or of the wrong type', async () => {
    const { user, key } = await withPasskey();
    const fresh = await newSession(t, user);
    const opts = await assertOptions(fresh);
    for (const ceremony of [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:3001' },
      { rpId: 'evil.example' },
      { type: 'webauthn.create' },
    ]) {
      const res = await withoutChange(t, () => signInWith(fresh, key.get(opts, ceremony)));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).message).toBe(PASSKEY_MSG.notVerified);
    }
    expect(await gateRefusal(t, fresh)).toBe('TWO_FACTOR_REQUIRED');
    // The challenge was not used up by the refusals: the right answer still works.
    expect((await signInWith(fresh, key.get(opts))).statusCode).toBe(200);
  });

  it('refuses a counter that went backwards (a cloned authenticator)', async () => {
    const { user, key } = await withPasskey();
    const first = await newSession(t, user);
    expect((await signInWith(first, key.get(await assertOptions(first)))).statusCode).toBe(200);
    const second = await newSession(t, user);
    const opts = await assertOptions(second);
    for (const signCount of [1, 0]) {
      const res = await withoutChange(t, () => signInWith(second, key.get(opts, { signCount })));
      expect(res.statusCode).toBe(400);
    }
    expect(await gateRefusal(t, second)).toBe('TWO_FACTOR_REQUIRED');
  });

  it("refuses another user's credential", async () => {
    const { key: theirs } = await withPasskey();
    const { user: me } = await withPasskey();
    const fresh = await newSession(t, me);
    const opts = await assertOptions(fresh);
    const res = await withoutChange(t, () => signInWith(fresh, theirs.get(opts)));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe(PASSKEY_MSG.notYours);
    expect(await gateRefusal(t, fresh)).toBe('TWO_FACTOR_REQUIRED');
  });

  it('counts wrong answers with the 2FA codes: over the limit, even a right one is refused', async () => {
    const { user, key } = await withPasskey();
    const fresh = await newSession(t, user);
    const opts = await assertOptions(fresh);
    const wrong = key.get(opts, { origin: 'https://evil.example' });
    for (let i = 0; i < 5; i++) expect((await signInWith(fresh, wrong)).statusCode).toBe(400);
    const res = await withoutChange(t, () => signInWith(fresh, key.get(opts)));
    expect(res.statusCode).toBe(429);
    expect(await gateRefusal(t, fresh)).toBe('TWO_FACTOR_REQUIRED');
  });
});

describe('renaming and removing', () => {
  const rename = (cookie: string, id: string, body: unknown) =>
    call(t, { method: 'PATCH', url: `/api/passkeys/${id}`, cookie, body });

  it('renames with a fresh second factor, logs the old and new name and mails the owner', async () => {
    const { user, passkeyId } = await withPasskey('Old laptop');
    const res = await rename(user.cookie, passkeyId, {
      name: '  Work laptop ',
      stepUp: { code: codeFor(user, 1) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().passkey.name).toBe('Work laptop');
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Work laptop']);
    expect((await securityEvents(user.userId)).at(-1)).toEqual({
      kind: 'passkey-renamed',
      detail: '"Old laptop" → "Work laptop"',
    });
    const activity = await call(t, { url: '/api/security/activity', cookie: user.cookie });
    expect(activity.json().events[0]).toMatchObject({
      label: 'Passkey renamed',
      detail: '"Old laptop" → "Work laptop"',
      ip: '127.0.0.1',
    });
    const mail = mailsTo(t, user.email).find((m) =>
      m.includes('A passkey was renamed on your Coffer account'),
    );
    expect(mail).toContain('Old laptop');
    expect(mail).toContain('Work laptop');
    expect(mail).toContain('Address: 127.0.0.1');
  });

  it('accepts a passkey answer as the fresh factor', async () => {
    const { user, key, passkeyId } = await withPasskey('Phone');
    const assertion = key.get(await assertOptions(user.cookie));
    const res = await rename(user.cookie, passkeyId, { name: 'Old phone', stepUp: { assertion } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Old phone']);
  });

  it('refuses a rename without a fresh second factor or with a wrong one, changing nothing', async () => {
    const { user, passkeyId } = await withPasskey('Laptop');
    const none = await withoutChange(t, () => rename(user.cookie, passkeyId, { name: 'Mine now' }));
    expect(none.statusCode).toBe(400);
    const wrong = await withoutChange(t, () =>
      rename(user.cookie, passkeyId, { name: 'Mine now', stepUp: { code: wrongCode(user) } }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong).message).toBe(STEP_UP_MSG.invalid);
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Laptop']);
    expect(mailsTo(t, user.email).some((m) => m.includes('renamed'))).toBe(false);
  });

  it("answers 404 for another user's passkey or an unknown one, without using the code", async () => {
    const { passkeyId } = await withPasskey('Laptop');
    const other = await verifiedCustomer(t);
    const code = codeFor(other, 1);
    const theirs = await withoutChange(t, () =>
      rename(other.cookie, passkeyId, { name: 'Stolen', stepUp: { code } }),
    );
    expect(theirs.statusCode).toBe(404);
    expect(errorOf(theirs).message).toBe(PASSKEY_MSG.unknown);
    const unknown = await withoutChange(t, () =>
      rename(other.cookie, crypto.randomUUID(), { name: 'Stolen', stepUp: { code } }),
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 400 to a malformed body or id, changing nothing', async () => {
    const { user, passkeyId } = await withPasskey('Laptop');
    const stepUp = { code: codeFor(user, 1) };
    for (const body of [
      { name: '', stepUp },
      { name: '   ', stepUp },
      { name: 'x'.repeat(61), stepUp },
      { name: 42, stepUp },
      { stepUp },
      { name: 'New', stepUp: { code: 12 } },
      { name: 'New', stepUp: 'code' },
      'name=New',
    ]) {
      const res = await withoutChange(t, () => rename(user.cookie, passkeyId, body));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const badId = await withoutChange(t, () =>
      rename(user.cookie, 'not-a-uuid', { name: 'New', stepUp }),
    );
    expect(badId.statusCode).toBe(400);
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Laptop']);
  });

  it('needs a fresh second factor, and mails the owner', async () => {
    const { user, passkeyId } = await withPasskey('Phone');
    const none = await withoutChange(t, () => remove(user.cookie, passkeyId, {}));
    expect(none.statusCode).toBe(400);
    const wrong = await withoutChange(t, () =>
      remove(user.cookie, passkeyId, { code: wrongCode(user) }),
    );
    expect(wrong.statusCode).toBe(400);
    const res = await remove(user.cookie, passkeyId, { code: codeFor(user, 1) });
    expect(res.statusCode, res.body).toBe(200);
    expect(await list(user.cookie)).toEqual([]);
    const mail = mailsTo(t, user.email).find((m) =>
      m.includes('A passkey was removed from your Coffer account'),
    );
    expect(mail).toContain('Phone');
  });

  it('refuses a code already used, and accepts a passkey answer instead', async () => {
    const { user, key, passkeyId } = await withPasskey();
    const used = await withoutChange(t, () =>
      remove(user.cookie, passkeyId, { code: codeFor(user) }),
    );
    expect(used.statusCode).toBe(400);
    expect((await securityEvents(user.userId)).at(-1)).toEqual({
      kind: 'step-up-failed',
      detail: 'Authenticator code',
    });
    const assertion = key.get(await assertOptions(user.cookie));
    const res = await remove(user.cookie, passkeyId, { assertion });
    expect(res.statusCode, res.body).toBe(200);
    expect(await list(user.cookie)).toEqual([]);
  });

  it('logs a refused passkey answer to a step-up like a refused sign-in, changing nothing', async () => {
    const { user, key, passkeyId } = await withPasskey('Phone');
    // Signed for a challenge the server did not give: the step-up refuses it.
    const forged = key.get({ challenge: 'bm90LXRoZS1jaGFsbGVuZ2U', rpId: 'localhost' });
    await assertOptions(user.cookie);
    const res = await withoutChange(t, () => remove(user.cookie, passkeyId, { assertion: forged }));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBe(PASSKEY_MSG.notVerified);
    expect((await securityEvents(user.userId)).at(-1)).toEqual({
      kind: 'step-up-failed',
      detail: 'Passkey',
    });
    const activity = await call(t, { url: '/api/security/activity', cookie: user.cookie });
    expect(activity.json().events[0]).toMatchObject({
      label: 'Confirmation refused: wrong code or passkey',
      detail: 'Passkey',
    });
    expect((await list(user.cookie)).map((p) => p.name)).toEqual(['Phone']);
  });

  it("cannot remove another user's passkey", async () => {
    const { passkeyId } = await withPasskey();
    const other = await verifiedCustomer(t);
    const res = await withoutChange(t, () =>
      remove(other.cookie, passkeyId, { code: codeFor(other, 1) }),
    );
    expect(res.statusCode).toBe(404);
  });

  it("goes with 2FA when an admin turns the customer's 2FA off", async () => {
    const { user } = await withPasskey();
    const admin = await verifiedAdmin(t);
    const off = await call(t, {
      method: 'POST',
      url: `/api/admin/users/${user.userId}/two-factor/disable`,
      cookie: admin.cookie,
      body: { reason: 'Lost phone, ticket 12', stepUp: { code: codeFor(admin, 1) } },
    });
    expect(off.statusCode, off.body).toBe(200);
    const rows = JSON.parse(await tableText(t, 'passkeys')) as { user_id: string }[];
    expect(rows.some((p) => p.user_id === user.userId)).toBe(false);
  });

  it('goes with 2FA when 2FA is turned off', async () => {
    const { user } = await withPasskey();
    const off = await call(t, {
      method: 'POST',
      url: '/api/2fa/disable',
      cookie: user.cookie,
      body: { code: codeFor(user, 1) },
    });
    expect(off.statusCode).toBe(200);
    expect(
      JSON.parse(await tableText(t, 'passkeys')).some(
        (p: { user_id: string }) => p.user_id === user.userId,
      ),
    ).toBe(false);
  });
});

describe('admins_require_passkey', () => {
  async function setRule(value: 'true' | 'false') {
    await t.services.pool.query(
      `UPDATE app_settings SET setting_value = $1 WHERE setting_key = 'admins_require_passkey'`,
      [value],
    );
    await t.services.pool.query(`SELECT pg_notify('coffer_settings', '')`);
  }
  afterAll(() => setRule('false'));

  it('refuses codes of admins, lets a passkey in and keeps the last one', async () => {
    const admin: SignedInUser = await verifiedAdmin(t);
    const key = new SoftAuthenticator();
    const reg = await register(
      admin.cookie,
      'Key',
      key.create(await registerOptions(admin.cookie)),
    );
    expect(reg.statusCode).toBe(200);
    const passkeyId: string = reg.json().passkey.id;
    // Turned on (on the settings screen it is proposed and approved by two staff members,
    // which the settings tests cover): written here as the approval writes it.
    await setRule('true');

    const fresh = await newSession(t, admin);
    // The sign-in screen learns that a code would be refused, so a device without the
    // passkey sends the admin to theirs instead of to a code field.
    const status = await call(t, { url: '/api/passkeys/sign-in', cookie: fresh });
    expect(status.json()).toEqual({ available: true, passkeyOnly: true });
    const byCode = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/2fa/verify',
        cookie: fresh,
        body: { code: codeFor(admin, 1) },
      }),
    );
    expect(byCode.statusCode).toBe(403);
    expect(errorOf(byCode).message).toBe(PASSKEY_MSG.adminsUsePasskey);
    const byBackup = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/2fa/verify',
        cookie: fresh,
        body: { backupCode: admin.backupCodes[0] },
      }),
    );
    expect(byBackup.statusCode).toBe(403);

    const ok = await signInWith(fresh, key.get(await assertOptions(fresh)));
    expect(ok.statusCode).toBe(200);
    const cookie = sessionCookie(ok);
    expect((await call(t, { url: '/api/admin/settings', cookie })).statusCode).toBe(200);

    const confirm = key.get(await assertOptions(cookie));
    const last = await withoutChange(t, () => remove(cookie, passkeyId, { assertion: confirm }));
    expect(last.statusCode).toBe(409);
    expect(errorOf(last).message).toBe(PASSKEY_MSG.lastAdminPasskey);

    // A customer is not held to it.
    const customer = await verifiedCustomer(t);
    const cust = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie: await newSession(t, customer),
      body: { code: codeFor(customer, 1) },
    });
    expect(cust.statusCode).toBe(200);
  });
});
