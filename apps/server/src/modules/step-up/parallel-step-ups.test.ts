import { STEP_UP_MSG } from '@coffer/shared';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  codeFor,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from '@server-test/helpers';
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One admin approving many payouts at once, as a click-happy browser or a script does:
 * every request is answered with its own outcome, never a 500, and the admin is not locked
 * out by requests that failed through no fault of theirs.
 */

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let customer: SignedInUser;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'ETH', '100');
}, 60_000);
afterAll(async () => {
  await t.close();
  await feeds.close();
});

const SLOW = { timeout: 90_000 };

/** `n` pending withdrawals of the customer, each to be approved by staff. */
async function pendingWithdrawals(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await requestWithdrawal(t, customer, {
      assetId: 'ETH',
      amount: '0.1',
      address: GOOD_ADDRESS.ETH,
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.push(res.json().transaction.id);
  }
  return ids;
}

const approve = (admin: SignedInUser, id: string, stepUp: unknown) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: admin.cookie,
    body: { stepUp },
  });

async function approvedCount(ids: string[]): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM payouts WHERE transaction_id = ANY($1::uuid[]) AND state = 'approved'",
    [ids],
  );
  return rows[0]?.n ?? 0;
}

async function auditCount(ids: string[]): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_log WHERE action = 'withdrawal.approve' AND target_id = ANY($1::text[])",
    [ids],
  );
  return rows[0]?.n ?? 0;
}

async function stepUpGuesses(admin: SignedInUser): Promise<number> {
  const { rows } = await t.services.pool.query<{ count: number }>(
    'SELECT count FROM rate_limits WHERE key = $1',
    [`step-up:account:${admin.userId}`],
  );
  return rows[0]?.count ?? 0;
}

describe('parallel approvals by one admin', () => {
  it(
    '10 at once, each with its own backup code: all approved, none answered 500',
    SLOW,
    async () => {
      const admin = await spareStepUps(t, await verifiedAdmin(t));
      const ids = await pendingWithdrawals(10);
      const answers = await Promise.all(ids.map((id) => approve(admin, id, stepUpFor(admin))));
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      expect(await approvedCount(ids)).toBe(10);
      expect(await auditCount(ids)).toBe(10);
      expect(await stepUpGuesses(admin)).toBe(0);
      await expectReconciled(t);
    },
  );

  it(
    '10 at once with one authenticator code: one approved, the others refused as used, no lock-out',
    SLOW,
    async () => {
      const admin = await spareStepUps(t, await verifiedAdmin(t));
      const ids = await pendingWithdrawals(10);
      const code = codeFor(admin, 1);
      const answers = await Promise.all(ids.map((id) => approve(admin, id, { code })));
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(400)]);
      for (const res of answers.filter((r) => r.statusCode === 400)) {
        expect(errorOf(res)).toEqual({ error: 'INVALID_CODE', message: STEP_UP_MSG.invalid });
      }
      expect(await approvedCount(ids)).toBe(1);
      expect(await auditCount(ids)).toBe(1);
      // A right code sent twice is no guess: nothing was counted against the admin...
      expect(await stepUpGuesses(admin)).toBe(0);
      // ...so the next approval with the next code goes through at once.
      const left = ids.find((_, i) => answers[i]?.statusCode !== 200);
      if (!left) throw new Error('nine approvals were refused');
      // (A backup code: the authenticator's next code is a step away.)
      const next = await approve(admin, left, stepUpFor(admin));
      expect(next.statusCode, next.body).toBe(200);
    },
  );

  it(
    '10 at once, codes and approvals mixed with a second admin: every answer a 200',
    SLOW,
    async () => {
      const first = await spareStepUps(t, await verifiedAdmin(t));
      const second = await spareStepUps(t, await verifiedAdmin(t));
      const ids = await pendingWithdrawals(10);
      const answers = await Promise.all(
        ids.map((id, i) => {
          const admin = i % 2 === 0 ? first : second;
          return approve(admin, id, stepUpFor(admin));
        }),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      expect(await approvedCount(ids)).toBe(10);
    },
  );
});
