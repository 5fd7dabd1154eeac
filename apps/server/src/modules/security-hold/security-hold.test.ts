import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  linkFromMail,
  mailsTo,
  type SignedInUser,
  STRONG_PASSWORD,
  sessionCookie,
  sessionWorks,
  signIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '../../../test/helpers';
import {
  fund,
  GOOD_ADDRESS,
  requestBankTransfer,
  requestWithdrawal,
  saveBankDetails,
  stepUpFor,
  walletOf,
} from '../../../test/money-helpers';
import { totpAt } from '../../../test/totp-reference';

/** DEVIATIONS S10: using the recovery phrase, or staff taking a factor away, starts a hold. */
let t: TestApp;
let admin: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await verifiedAdmin(t);
});
afterAll(async () => {
  await t.close();
});

const NEW_PASSWORD = 'Brand-New-Pass-7';
const BANK = { fullName: 'Jo Citizen', bsb: '062000', accountNumber: '12345678' };

/** A funded customer who reset the password with the phrase and set 2FA up again. */
async function afterPhraseReset() {
  const user = await verifiedCustomer(t);
  await fund(t, user.userId, 'BTC', '1');
  const reset = await call(t, {
    method: 'POST',
    url: '/api/auth/reset-password',
    body: { recoveryPhrase: user.seedPhrase, newPassword: NEW_PASSWORD },
    ip: '203.0.113.9',
    headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
  });
  expect(reset.statusCode).toBe(200);
  const signedIn = await signIn(t, user.email, NEW_PASSWORD);
  const cookie = sessionCookie(signedIn);
  const verified = await call(t, {
    method: 'POST',
    url: '/api/2fa/verify',
    cookie,
    body: { code: codeFor(user, 1) },
  });
  expect(verified.statusCode).toBe(200);
  return { ...user, password: NEW_PASSWORD, cookie: sessionCookie(verified) };
}

const holdOf = (user: SignedInUser) =>
  call(t, { url: '/api/security/hold', cookie: user.cookie }).then((r) => r.json());

function freezeLink(email: string): string {
  const mail = mailsTo(t, email).findLast((m) => m.includes('/freeze?token='));
  if (!mail) throw new Error(`no freeze link mailed to ${email}`);
  return new URL(linkFromMail(mail, t.origin)).searchParams.get('token') ?? '';
}

describe('a recovery with the phrase', () => {
  it('starts a hold: payouts, bank details and factor changes wait, and the mail says so', async () => {
    const user = await afterPhraseReset();
    const mail = (mailsTo(t, user.email).at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('Subject: Your Coffer password was reset');
    expect(mail).toContain('From: 203.0.113.9, Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0');
    expect(mail).toContain('on hold until');
    expect(await holdOf(user)).toMatchObject({ onHold: true, needsNewPhrase: true, frozen: false });

    const refused = [
      () =>
        requestWithdrawal(t, user, { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC }),
      () =>
        requestBankTransfer(t, user, {
          accountName: 'Jo Citizen',
          accountNumber: '12345678',
          bsbNumber: '062000',
          amountAud: '50',
          assetId: 'BTC',
        }),
      () => saveBankDetails(t, user, BANK),
      () =>
        call(t, {
          method: 'POST',
          url: '/api/2fa/disable',
          cookie: user.cookie,
          body: { code: codeFor(user, 2) },
        }),
    ];
    for (const attempt of refused) {
      const res = await withoutChange(t, attempt);
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).error).toBe('SECURITY_HOLD');
      expect(errorOf(res).message).toMatch(/^Your account is under a security hold until .+ UTC:/);
    }
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    // The reset removed every passkey: a first one is the new factor it asks for, as the new
    // authenticator is, so it may be added (a second one would wait: see the gate test).
    const first = await call(t, {
      method: 'POST',
      url: '/api/passkeys/register/options',
      cookie: user.cookie,
    });
    expect(first.statusCode).toBe(200);
  });

  it('burns the phrase: the hold lasts until a new one is confirmed, even after its time', async () => {
    const user = await afterPhraseReset();
    // The used phrase works no more.
    const again = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/auth/reset-password',
        body: { recoveryPhrase: user.seedPhrase, newPassword: 'Another-New-Pass-8' },
      }),
    );
    expect(errorOf(again).error).toBe('INVALID_RECOVERY_PHRASE');
    // The time has passed, but no new phrase yet: still on hold.
    await t.services.pool.query(
      "UPDATE user_profiles SET security_hold_until = now() - interval '1 minute' WHERE id = $1",
      [user.userId],
    );
    expect(await holdOf(user)).toMatchObject({ onHold: true, needsNewPhrase: true });
    const still = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.1',
      address: GOOD_ADDRESS.BTC,
    });
    expect(errorOf(still)).toMatchObject({ error: 'SECURITY_HOLD' });
    expect(errorOf(still).message).toContain('Create a new recovery phrase');

    // A new phrase, behind the password as always, and confirmed, ends it.
    await call(t, {
      method: 'POST',
      url: '/api/recovery-phrase/unlock',
      cookie: user.cookie,
      body: { password: user.password },
    });
    const made = await call(t, {
      method: 'POST',
      url: '/api/recovery-phrase/generate',
      cookie: user.cookie,
    });
    expect(made.json()).toMatchObject({ created: true });
    expect(made.json().phrase).not.toBe(user.seedPhrase);
    // Made but not yet confirmed: the hold waits for the customer to type it back.
    expect(await holdOf(user)).toMatchObject({ onHold: true, needsNewPhrase: true });
    const confirmed = await call(t, {
      method: 'POST',
      url: '/api/recovery-phrase/confirm',
      cookie: user.cookie,
      body: { phrase: made.json().phrase },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await holdOf(user)).toMatchObject({ onHold: false });
    const paid = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.1',
      address: GOOD_ADDRESS.BTC,
    });
    expect(paid.statusCode).toBe(200);
  });

  it('lasts the security_hold_hours setting', async () => {
    await t.services.pool.query(
      "UPDATE app_settings SET setting_value = '2' WHERE setting_key = 'security_hold_hours'",
    );
    try {
      const user = await afterPhraseReset();
      const { rows } = await t.services.pool.query<{ hours: number }>(
        `SELECT round(extract(epoch FROM security_hold_until - now()) / 3600)::int AS hours
           FROM user_profiles WHERE id = $1`,
        [user.userId],
      );
      expect(rows[0]?.hours).toBe(2);
    } finally {
      await t.services.pool.query(
        "UPDATE app_settings SET setting_value = '48' WHERE setting_key = 'security_hold_hours'",
      );
    }
  });
});

describe('the customer\'s "This wasn\'t me" link', () => {
  it('freezes the account at once, signs it out everywhere and writes the audit log', async () => {
    const user = await afterPhraseReset();
    const token = freezeLink(user.email);
    const res = await call(t, { method: 'POST', url: '/api/security/freeze', body: { token } });
    expect(res.statusCode).toBe(200);
    expect(await sessionWorks(t, user.cookie)).toBe(false);
    expect(mailsTo(t, user.email).at(-1)).toContain('Subject: Your Coffer account is frozen');
    const { rows } = await t.services.pool.query(
      "SELECT actor_id, after FROM audit_log WHERE action = 'user.freeze' AND target_id = $1",
      [user.userId],
    );
    expect(rows).toEqual([{ actor_id: null, after: { frozen: true, sessionsEnded: 1 } }]);

    // A link works once.
    const twice = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/security/freeze', body: { token } }),
    );
    expect(twice.statusCode).toBe(404);

    // Signed in again, nothing moves until staff review it.
    const back = await signIn(t, user.email, user.password);
    const verified = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie: sessionCookie(back),
      body: { backupCode: user.backupCodes[0] },
    });
    const cookie = sessionCookie(verified);
    const frozen = await withoutChange(t, () =>
      requestWithdrawal(
        t,
        { ...user, cookie },
        {
          assetId: 'BTC',
          amount: '0.1',
          address: GOOD_ADDRESS.BTC,
        },
      ),
    );
    expect(errorOf(frozen).error).toBe('ACCOUNT_FROZEN');

    // Staff lift it after review, with a reason, audited; lifting it twice is refused.
    const unfreeze = (reason: string) =>
      call(t, {
        method: 'POST',
        url: `/api/admin/users/${user.userId}/unfreeze`,
        cookie: admin.cookie,
        body: { reason },
      });
    // The users screen shows it frozen.
    const listed = await call(t, {
      url: `/api/admin/users?q=${encodeURIComponent(user.email)}`,
      cookie: admin.cookie,
    });
    expect(listed.json().users).toEqual([
      expect.objectContaining({ id: user.userId, frozen: true }),
    ]);
    expect((await withoutChange(t, () => unfreeze(' '))).statusCode).toBe(400);
    expect((await unfreeze('Called the customer on their number on file')).statusCode).toBe(200);
    expect((await withoutChange(t, () => unfreeze('again'))).statusCode).toBe(409);
    expect(await holdOf({ ...user, cookie })).toMatchObject({ frozen: false });
    const customerCannot = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/users/${user.userId}/unfreeze`,
        cookie,
        body: { reason: 'me' },
      }),
    );
    expect(customerCannot.statusCode).toBe(403);
  });

  it('refuses a made-up or malformed token, changing nothing', async () => {
    for (const token of ['x'.repeat(43), 'short', '']) {
      const res = await withoutChange(t, () =>
        call(t, { method: 'POST', url: '/api/security/freeze', body: { token } }),
      );
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});

describe('staff taking a factor away', () => {
  it('starts the same hold, without burning the phrase', async () => {
    const user = await verifiedCustomer(t);
    const res = await call(t, {
      method: 'POST',
      url: `/api/admin/users/${user.userId}/two-factor/disable`,
      cookie: admin.cookie,
      body: { reason: 'Lost phone, ticket 12', stepUp: stepUpFor(admin) },
    });
    expect(res.statusCode).toBe(200);
    expect((mailsTo(t, user.email).at(-1) ?? '').replace(/=\r?\n/g, '')).toContain(
      '/freeze?token=',
    );
    const back = await signIn(t, user.email, STRONG_PASSWORD);
    const setup = await call(t, {
      method: 'POST',
      url: '/api/2fa/setup',
      cookie: sessionCookie(back),
    });
    const enabled = await call(t, {
      method: 'POST',
      url: '/api/2fa/enable',
      cookie: sessionCookie(back),
      body: { code: totpAt(setup.json().secret, Date.now()) },
    });
    const cookie = sessionCookie(enabled);
    expect(await holdOf({ ...user, cookie })).toMatchObject({
      onHold: true,
      needsNewPhrase: false,
    });
  });
});
