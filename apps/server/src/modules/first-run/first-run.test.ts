import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  errorOf,
  newSession,
  type SignedInUser,
  sessionCookie,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { realJpeg } from '@server-test/image-fixtures';
import { fund, spareStepUps, stepUpFor } from '@server-test/money-helpers';
import { multipart } from '@server-test/multipart';
import { SoftAuthenticator } from '@server-test/soft-authenticator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
let admin: SignedInUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
});

async function checklist(cookie: string) {
  const res = await call(t, { url: '/api/first-run', cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const dismiss = (cookie: string) =>
  call(t, { method: 'POST', url: '/api/first-run/dismiss', cookie });

/** The identity form as the KYC page sends it; the submission's id. */
async function submitKyc(user: SignedInUser): Promise<string> {
  const body = multipart(
    { fullName: 'Ada Lovelace', phoneNumber: '+61 400 000 000', address: '1 Main St' },
    [{ field: 'front', filename: 'licence.jpg', bytes: realJpeg(), type: 'image/jpeg' }],
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/kyc',
    headers: { origin: t.origin, cookie: user.cookie, 'content-type': body.contentType },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().submission.id;
}

async function review(id: string, decision: 'approved' | 'rejected') {
  const res = await call(t, {
    method: 'POST',
    url: `/api/admin/kyc/${id}/review`,
    cookie: admin.cookie,
    // A review is a staff write: confirmed with the reviewer's fresh second factor.
    body: {
      ...(decision === 'rejected' ? { decision, notes: 'The photo is blurry.' } : { decision }),
      stepUp: stepUpFor(admin),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('the first-run checklist', () => {
  it('has every step open for a new customer', async () => {
    const user = await verifiedCustomer(t);
    expect(await checklist(user.cookie)).toEqual({
      kyc: 'not-started',
      deposited: false,
      passkey: false,
      dismissed: false,
    });
  });

  it("follows the identity check: submitted, then the reviewer's decision", async () => {
    const approved = await verifiedCustomer(t);
    const id = await submitKyc(approved);
    expect((await checklist(approved.cookie)).kyc).toBe('submitted');
    await review(id, 'approved');
    expect((await checklist(approved.cookie)).kyc).toBe('approved');

    const rejected = await verifiedCustomer(t);
    await review(await submitKyc(rejected), 'rejected');
    expect((await checklist(rejected.cookie)).kyc).toBe('rejected');
  });

  it('ticks the first deposit once one is completed, not while it confirms', async () => {
    const user = await verifiedCustomer(t);
    // A deposit seen on chain but still confirming: not in the balance, not done yet.
    await withTransaction(t.services.pool, (client) =>
      t.services.ledger.post(client, {
        userId: user.userId,
        assetId: 'BTC',
        type: 'deposit',
        direction: 'credit',
        amount: 1_000_000n,
        status: 'pending',
        transactionHash: 'ab'.repeat(32),
        createdBy: null,
      }),
    );
    expect((await checklist(user.cookie)).deposited).toBe(false);
    await fund(t, user.userId, 'ETH', '0.5');
    expect((await checklist(user.cookie)).deposited).toBe(true);
  });

  it('ticks the passkey once the account has one', async () => {
    const user = await verifiedCustomer(t);
    const options = await call(t, {
      method: 'POST',
      url: '/api/passkeys/register/options',
      cookie: user.cookie,
    });
    const credential = new SoftAuthenticator().create(options.json().options);
    const added = await call(t, {
      method: 'POST',
      url: '/api/passkeys/register',
      cookie: user.cookie,
      body: { name: 'Laptop', credential },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(await checklist(user.cookie)).toMatchObject({ passkey: true, dismissed: false });
  });

  it('stays closed once dismissed, on every device, and only for that account', async () => {
    const user = await verifiedCustomer(t);
    const other = await verifiedCustomer(t);
    const res = await dismiss(user.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dismissed: true, kyc: 'not-started' });
    const firstAt = await dismissedAt(user.userId);
    expect(firstAt).not.toBeNull();

    // Another browser of the same account finds it closed too.
    const verified = await call(t, {
      method: 'POST',
      url: '/api/2fa/verify',
      cookie: await newSession(t, user),
      body: { backupCode: user.backupCodes[0] },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await checklist(sessionCookie(verified))).dismissed).toBe(true);

    // Closing it again keeps the first time; the other customer's is still open.
    expect((await dismiss(user.cookie)).statusCode).toBe(200);
    expect(await dismissedAt(user.userId)).toEqual(firstAt);
    expect((await checklist(other.cookie)).dismissed).toBe(false);
  });

  it('is refused without a session or before 2FA, and a refused dismissal changes nothing', async () => {
    const anonymous = await call(t, { url: '/api/first-run' });
    expect(anonymous.statusCode).toBe(401);
    const unverified = await signUpAndSignIn(t);
    for (const cookie of [undefined, unverified.cookie]) {
      const res = await withoutChange(t, () =>
        call(t, { method: 'POST', url: '/api/first-run/dismiss', ...(cookie ? { cookie } : {}) }),
      );
      expect(res.statusCode).toBe(cookie ? 403 : 401);
      expect(errorOf(res).error).toBe(cookie ? 'TWO_FACTOR_REQUIRED' : 'UNAUTHENTICATED');
    }
    expect(await dismissedAt(unverified.userId)).toBeNull();
  });
});

async function dismissedAt(userId: string): Promise<Date | null> {
  const { rows } = await t.services.pool.query<{ at: Date | null }>(
    'SELECT first_run_dismissed_at AS at FROM user_profiles WHERE id = $1',
    [userId],
  );
  return rows[0]?.at ?? null;
}
