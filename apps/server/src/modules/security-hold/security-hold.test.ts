import { FROZEN_MSG } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  linkFromMail,
  mailsTo,
  newSession,
  phraseWordsFor,
  type SignedInUser,
  STRONG_PASSWORD,
  sessionCookie,
  sessionWorks,
  signIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import {
  fund,
  GOOD_ADDRESS,
  requestBankTransfer,
  requestWithdrawal,
  saveBankDetails,
  stepUpFor,
  walletOf,
} from '@server-test/money-helpers';
import { SoftAuthenticator } from '@server-test/soft-authenticator';
import { totpAt } from '@server-test/totp-reference';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** product.md S10: using the recovery phrase, or staff taking a factor away, starts a hold. */
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
    // The authenticator the customer kept is their factor: a passkey would be one beyond it,
    // and waits, from its registration options on.
    const first = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/passkeys/register/options', cookie: user.cookie }),
    );
    expect(errorOf(first).error).toBe('SECURITY_HOLD');
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

  it('lasts the security_hold_hours setting, and never less than 24 hours', async () => {
    const holdHoursFor = async (setting: string) => {
      await t.services.pool.query(
        "UPDATE app_settings SET setting_value = $1 WHERE setting_key = 'security_hold_hours'",
        [setting],
      );
      const user = await afterPhraseReset();
      const { rows } = await t.services.pool.query<{ hours: number }>(
        `SELECT round(extract(epoch FROM security_hold_until - now()) / 3600)::int AS hours
           FROM user_profiles WHERE id = $1`,
        [user.userId],
      );
      return rows[0]?.hours;
    };
    try {
      expect(await holdHoursFor('72')).toBe(72);
      // A value stored before the floor of 24 existed cannot shorten a hold.
      expect(await holdHoursFor('2')).toBe(24);
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

/**
 * A customer whose hold mail's link was used: frozen, every session ended. The hold is
 * started as staff's Disable 2FA starts it, so the phrase and the authenticator still work:
 * whoever holds them (an attacker, say) must still get nowhere.
 */
async function frozenCustomer() {
  const user = await verifiedCustomer(t);
  await fund(t, user.userId, 'BTC', '1');
  await withTransaction(t.services.pool, (client) =>
    t.services.securityHold.start(client, {
      userId: user.userId,
      email: user.email,
      event: 'admin-two-factor-disable',
      from: null,
    }),
  );
  await t.services.outbox.deliver();
  const frozen = await call(t, {
    method: 'POST',
    url: '/api/security/freeze',
    body: { token: freezeLink(user.email) },
  });
  expect(frozen.statusCode).toBe(200);
  return user;
}

const sessionsOf = async (userId: string) =>
  (await t.services.pool.query('SELECT id FROM sessions WHERE user_id = $1', [userId])).rowCount;

/** Every sign-in answer of a frozen account: the same status and message, whatever the password. */
async function refusedSignIn(email: string, password: string) {
  const res = await withoutChange(t, () => signIn(t, email, password));
  return { status: res.statusCode, ...errorOf(res), cookies: res.cookies.length };
}

describe('a frozen account', () => {
  it('refuses sign-in with one answer for a right or a wrong password, and opens no session', async () => {
    const user = await frozenCustomer();
    const right = await refusedSignIn(user.email, user.password);
    const wrong = await refusedSignIn(user.email, 'Not-The-Password-1');
    expect(right).toEqual({
      status: 403,
      error: 'ACCOUNT_FROZEN',
      message: FROZEN_MSG.frozen,
      cookies: 0,
    });
    expect(wrong).toEqual(right);
    expect(await sessionsOf(user.userId)).toBe(0);
    // Staff's review sees both attempts, and which one knew the password.
    const { rows } = await t.services.pool.query(
      `SELECT detail FROM security_events WHERE user_id = $1 AND kind = 'sign-in-refused-frozen'
        ORDER BY id`,
      [user.userId],
    );
    expect(rows).toEqual([
      { detail: 'The password was right' },
      { detail: 'The password was wrong' },
    ]);
  });

  it('hashes the password before refusing, right or wrong', async () => {
    const user = await frozenCustomer();
    const timed = async (password: string) => {
      const started = performance.now();
      await signIn(t, user.email, password, '203.0.113.60');
      return performance.now() - started;
    };
    // Both hash the password: neither answer is a shortcut (scrypt at N=2^17 takes far over
    // 20 ms anywhere, a refusal without it a few). Only a lower bound: a busy machine makes
    // both slower, never faster, so the check does not depend on the load.
    const right = await timed(user.password);
    const wrong = await timed('Not-The-Password-1');
    expect(right).toBeGreaterThan(20);
    expect(wrong).toBeGreaterThan(20);
  });

  it('is not recovered by the recovery phrase, which stays unburnt', async () => {
    const user = await frozenCustomer();
    const res = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/auth/reset-password',
        body: { recoveryPhrase: user.seedPhrase, newPassword: 'Attacker-Chosen-77' },
      }),
    );
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toEqual({ error: 'ACCOUNT_FROZEN', message: FROZEN_MSG.frozen });
  });

  it('treats a session that survived as none: no 2FA, passkey or phrase step, nothing to read', async () => {
    const user = await frozenCustomer();
    // A session row the freeze did not end (it ends them all; this checks the look-up too),
    // one half signed in and one past 2FA.
    const half = `coffer_session=${await t.services.sessions.create({
      userId: user.userId,
      twoFactorVerified: false,
      ip: '203.0.113.7',
      userAgent: undefined,
    })}`;
    const full = `coffer_session=${await t.services.sessions.create({
      userId: user.userId,
      twoFactorVerified: true,
      ip: '203.0.113.7',
      userAgent: undefined,
    })}`;
    const attempts: Array<[string, 'GET' | 'POST', string, unknown]> = [
      [half, 'POST', '/api/2fa/verify', { code: codeFor(user, 1) }],
      [half, 'POST', '/api/2fa/verify', { backupCode: user.backupCodes[0] }],
      [half, 'POST', '/api/passkeys/assert/options', undefined],
      [half, 'POST', '/api/passkeys/sign-in', {}],
      [half, 'POST', '/api/2fa/reset-with-phrase', { seedPhrase: user.seedPhrase }],
      [full, 'GET', '/api/wallets', undefined],
      [full, 'GET', '/api/transactions', undefined],
      [full, 'GET', '/api/transactions/export.csv', undefined],
      [full, 'POST', '/api/recovery-phrase/unlock', { password: user.password }],
      [full, 'GET', '/api/recovery-phrase', undefined],
      [full, 'GET', '/api/session', undefined],
      // The cookie the customer (or whoever) held before the freeze.
      [user.cookie, 'GET', '/api/wallets', undefined],
      [user.cookie, 'GET', '/api/transactions/export.csv', undefined],
    ];
    for (const [cookie, method, url, body] of attempts) {
      const res = await call(t, { method, url, cookie, ...(body === undefined ? {} : { body }) });
      if (url === '/api/session') expect(res.json()).toEqual({ session: null });
      else expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.body).not.toContain('BTC');
    }
    // The backup code offered above was not used up.
    const { rows } = await t.services.pool.query(
      'SELECT count(*)::int AS n FROM backup_codes WHERE user_id = $1 AND used_at IS NOT NULL',
      [user.userId],
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('lifting a freeze: two admins', () => {
  let second: SignedInUser;
  let third: SignedInUser;
  beforeAll(async () => {
    second = await verifiedAdmin(t);
    third = await verifiedAdmin(t);
  });

  const unfreezeUrl = (userId: string, step = '') =>
    `/api/admin/users/${userId}/unfreeze${step ? `/${step}` : ''}`;
  const request = (by: SignedInUser, userId: string, reason: string) =>
    call(t, {
      method: 'POST',
      url: unfreezeUrl(userId),
      cookie: by.cookie,
      body: { reason, stepUp: stepUpFor(by) },
    });
  const approve = (by: SignedInUser, userId: string) =>
    call(t, {
      method: 'POST',
      url: unfreezeUrl(userId, 'approve'),
      cookie: by.cookie,
      body: { stepUp: stepUpFor(by) },
    });
  const reject = (by: SignedInUser, userId: string, reason: string) =>
    call(t, {
      method: 'POST',
      url: unfreezeUrl(userId, 'reject'),
      cookie: by.cookie,
      body: { reason, stepUp: stepUpFor(by) },
    });
  const auditOf = async (userId: string) =>
    (
      await t.services.pool.query(
        `SELECT action, actor_id, reason, after FROM audit_log
          WHERE target_id = $1 AND action LIKE 'user.unfreeze%' ORDER BY created_at, id`,
        [userId],
      )
    ).rows;

  it("takes a request with a reason, then another admin's approval; the password must be set anew", async () => {
    const user = await frozenCustomer();
    const REASON = 'Called the customer on their number on file; they confirm the phishing mail';

    // A reason and a step-up are required; a customer may not ask; nothing changes meanwhile.
    const noReason = await withoutChange(t, () => request(admin, user.userId, ' '));
    expect(noReason.statusCode).toBe(400);
    expect(errorOf(noReason).message).toBe('Say how the account was reviewed.');
    const noStepUp = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: unfreezeUrl(user.userId),
        cookie: admin.cookie,
        body: { reason: REASON },
      }),
    );
    expect(noStepUp.statusCode).toBe(400);
    const other = await verifiedCustomer(t);
    const customerCannot = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: unfreezeUrl(user.userId),
        cookie: other.cookie,
        body: { reason: 'me', stepUp: stepUpFor(other) },
      }),
    );
    expect(customerCannot.statusCode).toBe(403);

    const asked = await request(admin, user.userId, REASON);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({
      frozen: true,
      awaitingNewPassword: false,
      pending: { requestedBy: { id: admin.userId, email: admin.email }, reason: REASON },
    });
    // The account is still frozen: sign-in refused as before.
    expect((await refusedSignIn(user.email, user.password)).message).toBe(FROZEN_MSG.frozen);
    // Another admin sees who asked, when and why.
    const seen = await call(t, { url: unfreezeUrl(user.userId), cookie: second.cookie });
    expect(seen.json()).toEqual(asked.json());

    // One request waits at a time; the one who asked cannot approve.
    const again = await withoutChange(t, () => request(second, user.userId, 'again'));
    expect(again.statusCode).toBe(409);
    const own = await withoutChange(t, () => approve(admin, user.userId));
    expect(own.statusCode).toBe(403);
    expect(errorOf(own).message).toBe(
      'You asked for this unfreeze yourself: another admin must approve it (four eyes).',
    );
    // A step-up that fails changes nothing either.
    const badCode = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: unfreezeUrl(user.userId, 'approve'),
        cookie: second.cookie,
        body: { stepUp: { code: 'ZZZZ-ZZZZ' } },
      }),
    );
    expect(badCode.statusCode).toBe(400);

    // Two other admins approve at once: it is applied once.
    const both = await Promise.all([approve(second, user.userId), approve(third, user.userId)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const approved = both.find((r) => r.statusCode === 200);
    expect(approved?.json()).toEqual({ frozen: false, awaitingNewPassword: true, pending: null });
    const approver = approved === both[0] ? second : third;
    expect((await withoutChange(t, () => approve(third, user.userId))).statusCode).toBe(409);

    const audit = await auditOf(user.userId);
    expect(audit.map((a) => [a.action, a.actor_id, a.reason])).toEqual([
      ['user.unfreeze.request', admin.userId, REASON],
      ['user.unfreeze', approver.userId, REASON],
    ]);
    expect(audit[1]?.after).toMatchObject({
      frozen: false,
      approvedBy: approver.userId,
      newPasswordRequired: true,
    });
    const kinds = await t.services.pool.query(
      `SELECT kind FROM security_events WHERE user_id = $1
          AND kind IN ('unfreeze-requested', 'account-unfrozen') ORDER BY id`,
      [user.userId],
    );
    expect(kinds.rows.map((r) => r.kind)).toEqual(['unfreeze-requested', 'account-unfrozen']);

    // The old password no longer signs in, right or wrong: the owner is sent to the mail.
    const right = await refusedSignIn(user.email, user.password);
    expect(right).toMatchObject({ status: 403, message: FROZEN_MSG.awaitingNewPassword });
    expect(await refusedSignIn(user.email, 'Not-The-Password-1')).toEqual(right);

    // The mail's link sets a new password once (the sign-up rule applies).
    const mail = (mailsTo(t, user.email).at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('Subject: Your Coffer account is unfrozen: set a new password');
    const token =
      new URL(linkFromMail(mail, t.origin)).searchParams.get('token') ?? 'missing-token';
    const { rows: stored } = await t.services.pool.query(
      'SELECT token_hash FROM set_password_tokens WHERE user_id = $1',
      [user.userId],
    );
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    const setPassword = (newPassword: string) =>
      call(t, {
        method: 'POST',
        url: '/api/security/set-password',
        body: { token, newPassword },
      });
    const weak = await withoutChange(t, () => setPassword('password'));
    expect(weak.statusCode).toBe(400);
    const NEW = 'Owner-Chose-This-42';
    expect((await setPassword(NEW)).statusCode).toBe(200);
    const twice = await withoutChange(t, () => setPassword('Someone-Else-Again-9'));
    expect(twice.statusCode).toBe(404);
    expect(errorOf(twice).message).toBe(FROZEN_MSG.setPasswordLinkInvalid);

    // The old password is refused as any wrong one; the new one signs in, under a hold.
    const old = await withoutChange(t, () => signIn(t, user.email, user.password));
    expect(errorOf(old).error).toBe('INVALID_CREDENTIALS');
    const back = await signIn(t, user.email, NEW);
    expect(back.statusCode).toBe(200);
    const verified = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie: sessionCookie(back),
      body: { backupCode: user.backupCodes[0] },
    });
    const cookie = sessionCookie(verified);
    expect(await holdOf({ ...user, cookie })).toMatchObject({ onHold: true, frozen: false });
    const wallets = await call(t, { url: '/api/wallets', cookie });
    expect(wallets.statusCode).toBe(200);
  });

  it('lets an admin reject a request: the account stays frozen, audited with the reason', async () => {
    const user = await frozenCustomer();
    expect((await request(admin, user.userId, 'They called in')).statusCode).toBe(202);
    const noReason = await withoutChange(t, () => reject(second, user.userId, ''));
    expect(noReason.statusCode).toBe(400);
    const rejected = await reject(second, user.userId, 'The caller could not answer the questions');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toEqual({ frozen: true, awaitingNewPassword: false, pending: null });
    expect((await withoutChange(t, () => approve(third, user.userId))).statusCode).toBe(409);
    expect((await refusedSignIn(user.email, user.password)).message).toBe(FROZEN_MSG.frozen);
    const audit = await auditOf(user.userId);
    expect(audit.map((a) => [a.action, a.actor_id, a.reason])).toEqual([
      ['user.unfreeze.request', admin.userId, 'They called in'],
      ['user.unfreeze.reject', second.userId, 'The caller could not answer the questions'],
    ]);
  });

  it('sends a new link the same way when the first one expired', async () => {
    const user = await frozenCustomer();
    expect((await request(admin, user.userId, 'Reviewed on a call')).statusCode).toBe(202);
    expect((await approve(second, user.userId)).statusCode).toBe(200);
    const linkIn = (mail: string | undefined) =>
      new URL(linkFromMail(mail ?? '', t.origin)).searchParams.get('token') ?? 'missing';
    const first = linkIn(mailsTo(t, user.email).at(-1));
    await t.services.pool.query(
      "UPDATE set_password_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1",
      [user.userId],
    );
    const setPassword = (token: string) =>
      call(t, {
        method: 'POST',
        url: '/api/security/set-password',
        body: { token, newPassword: 'Owner-Chose-This-42' },
      });
    expect((await withoutChange(t, () => setPassword(first))).statusCode).toBe(404);
    // The users screen still offers the review: nobody can sign in.
    const listed = await call(t, {
      url: `/api/admin/users?q=${encodeURIComponent(user.email)}`,
      cookie: admin.cookie,
    });
    expect(listed.json().users).toEqual([expect.objectContaining({ frozen: true })]);
    const asked = await request(third, user.userId, 'The link expired; the owner called again');
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ frozen: false, awaitingNewPassword: true });
    expect((await withoutChange(t, () => approve(third, user.userId))).statusCode).toBe(403);
    expect((await approve(admin, user.userId)).statusCode).toBe(200);
    const fresh = linkIn(mailsTo(t, user.email).at(-1));
    expect(fresh).not.toBe(first);
    expect((await setPassword(fresh)).statusCode).toBe(200);
    expect((await signIn(t, user.email, 'Owner-Chose-This-42')).statusCode).toBe(200);
  });

  it('refuses a request for an account that is not frozen, or unknown', async () => {
    const user = await verifiedCustomer(t);
    const notFrozen = await withoutChange(t, () => request(admin, user.userId, 'why not'));
    expect(notFrozen.statusCode).toBe(409);
    const unknown = await withoutChange(t, () =>
      request(admin, '00000000-0000-4000-8000-000000000000', 'nobody'),
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe('a security hold keeps the password, the devices and the factors as they are', () => {
  it('refuses a password change, signing other devices out and another factor', async () => {
    const user = await afterPhraseReset();
    const other = await newSession(t, user);
    const otherId = (
      await t.services.pool.query<{ id: string }>(
        'SELECT id FROM sessions WHERE user_id = $1 AND two_factor_verified_at IS NULL',
        [user.userId],
      )
    ).rows[0]?.id;
    const credential = new SoftAuthenticator().create({
      challenge: Buffer.from('never issued').toString('base64url'),
      rp: { id: 'localhost' },
    });
    const refused: Array<[string, 'POST' | 'DELETE', string, unknown]> = [
      [
        'password change',
        'POST',
        '/api/account/password',
        {
          currentPassword: user.password,
          newPassword: 'Attacker-Chosen-77',
          stepUp: { code: codeFor(user, 2) },
        },
      ],
      ['sign out the others', 'POST', '/api/sessions/sign-out-others', undefined],
      ['sign out another', 'DELETE', `/api/sessions/${otherId}`, undefined],
      ['passkey options', 'POST', '/api/passkeys/register/options', undefined],
      ['passkey', 'POST', '/api/passkeys/register', { name: 'Phone', credential }],
      ['authenticator setup', 'POST', '/api/2fa/setup', undefined],
      ['authenticator enable', 'POST', '/api/2fa/enable', { code: '123456' }],
    ];
    for (const [what, method, url, body] of refused) {
      const res = await withoutChange(t, () =>
        call(t, { method, url, cookie: user.cookie, ...(body === undefined ? {} : { body }) }),
      );
      expect(`${what}: ${res.statusCode} ${errorOf(res).error}`).toBe(`${what}: 403 SECURITY_HOLD`);
      expect(errorOf(res).message).toMatch(/^Your account is under a security hold until .+ UTC:/);
    }
    expect(await sessionWorks(t, other)).toBe(true);
    // Signing this device out is always allowed.
    const self = await call(t, { method: 'POST', url: '/api/auth/sign-out', cookie: user.cookie });
    expect(self.statusCode).toBe(200);
  });

  it("still lets a reset's own factor be set up: a new authenticator after a 2FA reset", async () => {
    const user = await verifiedCustomer(t);
    const reset = await call(t, {
      method: 'POST',
      url: '/api/2fa/reset-with-phrase',
      cookie: user.cookie,
      body: { seedPhrase: user.seedPhrase },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const setup = await call(t, { method: 'POST', url: '/api/2fa/setup', cookie: user.cookie });
    expect(setup.statusCode).toBe(200);
    const enabled = await call(t, {
      method: 'POST',
      url: '/api/2fa/enable',
      cookie: user.cookie,
      body: {
        code: totpAt(setup.json().secret, Date.now()),
        phraseWords: phraseWordsFor(setup.json()),
      },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    // Its passkey would be a factor beyond it: it waits.
    const passkey = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/passkeys/register/options',
        cookie: sessionCookie(enabled),
      }),
    );
    expect(errorOf(passkey).error).toBe('SECURITY_HOLD');
  });

  it('refuses an optional authenticator inside a hold', async () => {
    const user = await verifiedCustomer(t);
    // Staff waive and turn off 2FA; the hold that starts keeps a new factor waiting.
    await t.services.pool.query(
      'UPDATE user_profiles SET two_factor_required = false WHERE id = $1',
      [user.userId],
    );
    const off = await call(t, {
      method: 'POST',
      url: `/api/admin/users/${user.userId}/two-factor/disable`,
      cookie: admin.cookie,
      body: { reason: 'Asked by the customer, ticket 7', stepUp: stepUpFor(admin) },
    });
    expect(off.statusCode, off.body).toBe(200);
    const back = sessionCookie(await signIn(t, user.email, user.password));
    const setup = await withoutChange(t, () =>
      call(t, { method: 'POST', url: '/api/2fa/setup', cookie: back }),
    );
    expect(errorOf(setup).error).toBe('SECURITY_HOLD');
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
    expect(res.statusCode, res.body).toBe(200);
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
