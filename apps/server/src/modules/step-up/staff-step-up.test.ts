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
  withoutChange,
} from '@server-test/helpers';
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
  transactionCount,
  walletOf,
} from '@server-test/money-helpers';
import { putSettings } from '@server-test/settings-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * Staff are held to the customer's standard: each staff action that moves money, changes a
 * factor or stops deposits takes the acting admin's own fresh second factor with the
 * request, so a stolen admin session alone moves nothing. Every such route is checked the
 * same way: refused without a step-up and with a wrong code (counted), changing nothing;
 * carried out with a current authenticator code — which, for an action that takes two
 * people, means proposed (202: a change waits, nothing else moved).
 */

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
/** The admin who prepares what the tested admin acts on (four eyes: never the same one). */
let preparer: SignedInUser;
/** The second staff member who approves what the preparer proposes. */
let approver: SignedInUser;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  preparer = await spareStepUps(t, await verifiedAdmin(t));
  approver = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
afterEach(async () => {
  await expectReconciled(t);
});

const SLOW = { timeout: 60_000 };
const ETH_HASH = `0x${'5e'.repeat(32)}`;

type Target = {
  url: string;
  body: Record<string, unknown>;
  /** What the admin would look at to see whether the action went through. */
  effect: () => Promise<unknown>;
  /** 202 where the action is a proposal another staff member must approve. */
  carriedOut?: 202;
};

/** The changes waiting for approval that concern a user: what a proposal adds to. */
const pendingFor = async (userId: string) =>
  (
    await t.services.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM staff_changes WHERE subject_user_id = $1 AND status = 'pending'",
      [userId],
    )
  ).rows[0]?.n;

/** Proposed by the preparer and approved by the approver: applied; the change's result. */
async function proposeAndApprove(method: 'POST' | 'PATCH', url: string, body: object) {
  const proposed = await call(t, {
    method,
    url,
    cookie: preparer.cookie,
    body: { ...body, stepUp: stepUpFor(preparer) },
  });
  expect(proposed.statusCode, proposed.body).toBe(202);
  const id: string = proposed.json().pending.id;
  const approved = await call(t, {
    method: 'POST',
    url: `/api/admin/changes/${id}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}
type StaffRoute = {
  name: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  prepare: () => Promise<Target>;
};

async function pendingWithdrawal() {
  const customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'ETH', '2');
  const res = await requestWithdrawal(t, customer, {
    assetId: 'ETH',
    amount: '1',
    address: GOOD_ADDRESS.ETH,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id: string = res.json().transaction.id;
  const status = async () =>
    (
      await t.services.pool.query<{ status: string }>(
        'SELECT status FROM transactions WHERE id = $1',
        [id],
      )
    ).rows[0]?.status;
  return { customer, id, status };
}

/** The payout's state beside its ledger row: null until a second admin approves it. */
const payoutStateOf = async (id: string) =>
  (
    await t.services.pool.query<{ state: string }>(
      'SELECT state FROM payouts WHERE transaction_id = $1',
      [id],
    )
  ).rows[0]?.state ?? null;

/** A customer's withdrawal the preparer approved: what staff then complete by hash. */
async function approvedWithdrawal() {
  const pending = await pendingWithdrawal();
  const res = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${pending.id}/approve`,
    cookie: preparer.cookie,
    body: { stepUp: stepUpFor(preparer) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return pending;
}

const twoFactorOn = async (userId: string) =>
  (
    await t.services.pool.query<{ on: boolean }>(
      'SELECT two_factor_enabled AS on FROM user_profiles WHERE id = $1',
      [userId],
    )
  ).rows[0]?.on;

const deposit = (userId: string) => ({
  userId,
  assetId: 'BTC',
  type: 'deposit',
  cryptoAmount: '1',
  usdAmount: '65000.00',
  status: 'pending',
  transactionDate: '2025-08-01T10:30:00.000Z',
  reason: 'Wire received, ticket 42',
});

/**
 * A pending deposit two other staff members recorded (a row to edit or delete: completed
 * deposits are final); its id.
 */
async function depositBy(userId: string): Promise<string> {
  await proposeAndApprove('POST', '/api/admin/transactions', deposit(userId));
  const { rows } = await t.services.pool.query<{ id: string }>(
    "SELECT id FROM transactions WHERE user_id = $1 AND transaction_type = 'deposit'",
    [userId],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('the deposit was not recorded');
  return id;
}

const ROUTES: StaffRoute[] = [
  {
    name: 'approving a payout',
    method: 'POST',
    async prepare() {
      const { id } = await pendingWithdrawal();
      return {
        url: `/api/admin/withdrawals/${id}/approve`,
        body: {},
        effect: () => payoutStateOf(id),
      };
    },
  },
  {
    name: 'completing a payout',
    method: 'POST',
    async prepare() {
      const { id, status, customer } = await approvedWithdrawal();
      return {
        url: `/api/admin/withdrawals/${id}/complete`,
        body: { reference: ETH_HASH },
        effect: async () => [await status(), await pendingFor(customer.userId)],
        carriedOut: 202,
      };
    },
  },
  {
    name: 'rejecting a payout',
    method: 'POST',
    async prepare() {
      const { id, status } = await pendingWithdrawal();
      return {
        url: `/api/admin/withdrawals/${id}/reject`,
        body: { reason: 'Address on a sanctions list' },
        effect: status,
      };
    },
  },
  {
    name: 'adding a transaction',
    method: 'POST',
    async prepare() {
      const customer = await verifiedCustomer(t);
      return {
        url: '/api/admin/transactions',
        body: deposit(customer.userId),
        effect: async () => [
          await walletOf(t, customer.userId, 'BTC'),
          await pendingFor(customer.userId),
        ],
        carriedOut: 202,
      };
    },
  },
  {
    name: 'editing a transaction',
    method: 'PATCH',
    async prepare() {
      const customer = await verifiedCustomer(t);
      const id = await depositBy(customer.userId);
      const { userId: _customer, ...fields } = deposit(customer.userId);
      return {
        url: `/api/admin/transactions/${id}`,
        body: { ...fields, cryptoAmount: '2', usdAmount: '130000.00' },
        effect: async () => [
          await walletOf(t, customer.userId, 'BTC'),
          await pendingFor(customer.userId),
        ],
        carriedOut: 202,
      };
    },
  },
  {
    name: 'deleting a transaction',
    method: 'DELETE',
    async prepare() {
      const customer = await verifiedCustomer(t);
      const id = await depositBy(customer.userId);
      return {
        url: `/api/admin/transactions/${id}`,
        body: { reason: 'Entered twice, ticket 43' },
        effect: async () => [
          await walletOf(t, customer.userId, 'BTC'),
          await pendingFor(customer.userId),
        ],
        carriedOut: 202,
      };
    },
  },
  {
    name: 'a balance edit',
    method: 'POST',
    async prepare() {
      const customer = await verifiedCustomer(t);
      await fund(t, customer.userId, 'BTC', '1');
      const { rows } = await t.services.pool.query<{ id: string }>(
        "SELECT id FROM user_wallets WHERE user_id = $1 AND asset_id = 'BTC'",
        [customer.userId],
      );
      return {
        url: `/api/admin/wallets/${rows[0]?.id}/balance`,
        body: { newBalance: '1.5', reason: 'Goodwill credit, ticket 9' },
        effect: async () => [
          await walletOf(t, customer.userId, 'BTC'),
          await transactionCount(t, customer.userId),
          await pendingFor(customer.userId),
        ],
        carriedOut: 202,
      };
    },
  },
  {
    name: "disabling a customer's 2FA",
    method: 'POST',
    async prepare() {
      const customer = await verifiedCustomer(t);
      return {
        url: `/api/admin/users/${customer.userId}/two-factor/disable`,
        body: { reason: 'Lost phone; identity checked on a video call' },
        effect: () => twoFactorOn(customer.userId),
      };
    },
  },
  {
    name: "resetting a customer's 2FA with their phrase",
    method: 'POST',
    async prepare() {
      const customer = await verifiedCustomer(t);
      return {
        url: `/api/admin/users/${customer.userId}/two-factor/reset`,
        body: { recoveryPhrase: customer.seedPhrase },
        effect: () => twoFactorOn(customer.userId),
      };
    },
  },
  {
    name: "resetting another admin's 2FA",
    method: 'POST',
    async prepare() {
      const other = await verifiedAdmin(t);
      return {
        url: `/api/admin/users/${other.userId}/two-factor/disable`,
        body: { reason: 'Lost phone; identity checked on a video call' },
        effect: async () => [await twoFactorOn(other.userId), await pendingFor(other.userId)],
        carriedOut: 202,
      };
    },
  },
  {
    name: 'deleting a deposit address',
    method: 'DELETE',
    async prepare() {
      const customer = await verifiedCustomer(t);
      await proposeAndApprove('POST', '/api/admin/deposit-addresses', {
        userId: customer.userId,
        assetSymbol: 'BTC',
        network: 'bitcoin',
        address: GOOD_ADDRESS.BTC,
      });
      const { rows } = await t.services.pool.query<{ id: string }>(
        'SELECT id FROM deposit_addresses WHERE user_id = $1',
        [customer.userId],
      );
      const id = rows[0]?.id;
      return {
        url: `/api/admin/deposit-addresses/${id}`,
        body: {},
        effect: async () => [
          (await t.services.pool.query('SELECT 1 FROM deposit_addresses WHERE id = $1', [id]))
            .rowCount,
          await pendingFor(customer.userId),
        ],
        carriedOut: 202,
      };
    },
  },
];

/** A code that is certainly not one the server would accept now (nor a step either side). */
function wrongCode(user: SignedInUser): string {
  const near = [-1, 0, 1, 2].map((step) => codeFor(user, step));
  return ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c)) ?? '444444';
}

/** The admin's wrong step-up answers, counted on the step-up limit (apart from sign-in's). */
async function guessesOf(admin: SignedInUser): Promise<number> {
  const { rows } = await t.services.pool.query<{ count: number }>(
    'SELECT count FROM rate_limits WHERE key = $1',
    [`step-up:account:${admin.userId}`],
  );
  return rows[0]?.count ?? 0;
}

describe.each(ROUTES)('$name', (route) => {
  let admin: SignedInUser;
  let target: Target;
  const send = (stepUp: unknown) =>
    call(t, {
      method: route.method,
      url: target.url,
      cookie: admin.cookie,
      body: stepUp === undefined ? target.body : { ...target.body, stepUp },
    });

  beforeAll(async () => {
    admin = await verifiedAdmin(t);
    target = await route.prepare();
  }, 60_000);

  it(
    'is refused without a step-up and with a wrong code (counted), changing nothing',
    SLOW,
    async () => {
      const before = await target.effect();
      const none = await withoutChange(t, () => send(undefined));
      expect([none.statusCode, errorOf(none)]).toEqual([
        400,
        { error: 'VALIDATION_FAILED', message: STEP_UP_MSG.required },
      ]);
      expect(await guessesOf(admin)).toBe(0);

      const wrong = await withoutChange(t, () => send({ code: wrongCode(admin) }));
      expect([wrong.statusCode, errorOf(wrong)]).toEqual([
        400,
        { error: 'INVALID_CODE', message: STEP_UP_MSG.invalid },
      ]);
      expect(await guessesOf(admin)).toBe(1);
      expect(await target.effect()).toEqual(before);
    },
  );

  it("is carried out with the admin's current authenticator code, used once", SLOW, async () => {
    const before = await target.effect();
    const code = codeFor(admin, 1);
    const ok = await send({ code });
    expect(ok.statusCode, ok.body).toBe(target.carriedOut ?? 200);
    expect(await target.effect()).not.toEqual(before);
    // A right answer ends the count of earlier typos, as at sign-in.
    expect(await guessesOf(admin)).toBe(0);
  });
});

describe('the same code twice', () => {
  it('confirms one staff action only', SLOW, async () => {
    const admin = await verifiedAdmin(t);
    const first = await approvedWithdrawal();
    const second = await approvedWithdrawal();
    const code = codeFor(admin, 1);
    const done = await call(t, {
      method: 'POST',
      url: `/api/admin/withdrawals/${first.id}/complete`,
      cookie: admin.cookie,
      body: { reference: ETH_HASH, stepUp: { code } },
    });
    // Completing by hand is proposed: the code confirmed the proposal.
    expect(done.statusCode, done.body).toBe(202);
    const replay = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${second.id}/complete`,
        cookie: admin.cookie,
        body: { reference: `0x${'6f'.repeat(32)}`, stepUp: { code } },
      }),
    );
    expect(errorOf(replay)).toEqual({ error: 'INVALID_CODE', message: STEP_UP_MSG.invalid });
    expect(await second.status()).toBe('pending');
  });

  it('confirms one approval only', SLOW, async () => {
    const admin = await verifiedAdmin(t);
    const first = await pendingWithdrawal();
    const second = await pendingWithdrawal();
    const code = codeFor(admin, 1);
    const approve = (id: string) =>
      call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/approve`,
        cookie: admin.cookie,
        body: { stepUp: { code } },
      });
    const done = await approve(first.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(await payoutStateOf(first.id)).toBe('approved');
    const replay = await withoutChange(t, () => approve(second.id));
    expect(errorOf(replay)).toEqual({ error: 'INVALID_CODE', message: STEP_UP_MSG.invalid });
    expect(await payoutStateOf(second.id)).toBeNull();
  });
});

describe('many admins at once', () => {
  it(
    'decide one change once with 50 parallel approvals, the pool never starved',
    SLOW,
    async () => {
      // An admin's step-up reads the passkey policy: inside the action's transaction it is
      // read on that transaction's connection. On a second one, 50 approvals waiting on the
      // change's row lock held every pooled connection while the lock's holder waited for
      // one, and the rest timed out as "database unavailable".
      const proposer = await spareStepUps(t, await verifiedAdmin(t));
      const approver = await spareStepUps(t, await verifiedAdmin(t));
      const proposed = await putSettings(t, proposer, { max_daily_withdrawal: '12345' });
      expect(proposed.statusCode, proposed.body).toBe(202);
      const id: string = proposed.json().pending[0].id;
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          call(t, {
            method: 'POST',
            url: `/api/admin/settings/changes/${id}/approve`,
            cookie: approver.cookie,
            body: { stepUp: stepUpFor(approver) },
          }),
        ),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array(49).fill(409)]);
      const { rows } = await t.services.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE action = 'settings.approve' AND target_id = $1",
        [id],
      );
      expect(rows[0]?.n).toBe(1);
    },
  );
});
