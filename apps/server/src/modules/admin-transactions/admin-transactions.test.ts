import { randomBytes } from 'node:crypto';
import {
  ADMIN_TX_MSG,
  ASSETS,
  fromMinor,
  parseAmount,
  REFERENCE_MSG,
  type TAnyAssetId,
} from '@coffer/shared';
import { createPool } from '@server/db/client';
import { withTransaction } from '@server/db/tx';
import { seedLoad } from '@server/seed-load';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  errorOf,
  mailsTo,
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
  requestBankTransfer,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYOUT_MSG } from '../payouts';
import { adminTransactionsRepository, type ListFilters } from './admin-transactions.repository';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let adminA: SignedInUser;
let adminB: SignedInUser;
let adminC: SignedInUser;
/**
 * Every ledger change here is two people's (decision 0036): A, B or C proposes it and
 * `ledgerApprover` approves it; a hand completion is approved by `payoutApprover`, who
 * never approves a credit (the 30-day rule would stop them deciding that customer's payouts).
 */
let ledgerApprover: SignedInUser;
let payoutApprover: SignedInUser;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  adminA = await spareStepUps(t, await verifiedAdmin(t));
  adminB = await spareStepUps(t, await verifiedAdmin(t));
  adminC = await spareStepUps(t, await verifiedAdmin(t));
  ledgerApprover = await spareStepUps(t, await verifiedAdmin(t));
  payoutApprover = await spareStepUps(t, await verifiedAdmin(t));
}, 120_000);
afterAll(async () => {
  await t.close();
  await feeds.close();
});
// A session slides (last_seen_at is written) on its first use after a minute, and this file
// runs for longer than that: a refused call inside withoutChange, which compares every
// table, must not be the one that slides an admin's session.
beforeEach(async () => {
  await t.services.pool.query(
    'UPDATE sessions SET last_seen_at = now() WHERE user_id = ANY($1::uuid[])',
    [[adminA.userId, adminB.userId, adminC.userId, ledgerApprover.userId, payoutApprover.userId]],
  );
});
// Whatever a test did or was refused, every wallet is still the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

const NOW = '2025-08-01T10:30:00.000Z';

/** A wallet's balance and hold, normalized; USDC included. */
async function wallet(userId: string, assetId: TAnyAssetId) {
  const { rows } = await t.services.pool.query<{ balance: string; held: string }>(
    'SELECT balance_crypto::text AS balance, held::text AS held FROM user_wallets WHERE user_id = $1 AND asset_id = $2',
    [userId, assetId],
  );
  const row = rows[0];
  if (!row) return null;
  const { decimals } = ASSETS[assetId];
  const trim = (v: string) => fromMinor(assetId, parseAmount(v, decimals));
  return { balance: trim(row.balance), held: trim(row.held) };
}

/**
 * The audit rows of a transaction: those naming it, and the approvals of the changes that
 * recorded or changed it (their actor is the approver; `proposedBy` is in `after`).
 */
async function auditRows(targetId: string) {
  const { rows } = await t.services.pool.query<{
    action: string;
    actor_id: string;
    reason: string | null;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  }>(
    `SELECT action, actor_id, reason, before, after FROM audit_log
      WHERE target_id = $1
         OR (action <> 'change.propose' AND target_id IN (
              SELECT id::text FROM staff_changes
               WHERE result->>'transactionId' = $1 OR payload->>'id' = $1))
      ORDER BY id`,
    [targetId],
  );
  return rows;
}

type Body = Record<string, unknown>;

function deposit(userId: string, over: Body = {}): Body {
  return {
    userId,
    assetId: 'BTC',
    type: 'deposit',
    cryptoAmount: '1',
    usdAmount: '65000.00',
    audAmount: '98800.00',
    status: 'completed',
    transactionDate: NOW,
    reason: 'Wire received, ticket 42',
    ...over,
  };
}

/**
 * The body as the admin's browser sends it: with a fresh second factor of the admin's,
 * unless the body brings its own `stepUp` (or says `stepUp: undefined` to send none).
 */
function confirmed(admin: SignedInUser, body: Body): Body {
  return 'stepUp' in body ? body : { ...body, stepUp: stepUpFor(admin) };
}

/** What a route answers (or, for a deletion approved, what the old route did: ok). */
type Answer = Awaited<ReturnType<typeof call>>;
const answer = (statusCode: number, json: unknown): Answer =>
  ({ statusCode, body: JSON.stringify(json), json: () => json }) as unknown as Answer;

/**
 * A proposal approved by another staff member: the approval's answer if it is refused,
 * else the row as it is now (200), as the one-person route answered before.
 */
async function approvedChange(
  proposal: Answer,
  approver: SignedInUser,
  id: string | null,
): Promise<Answer> {
  if (proposal.statusCode !== 202) return proposal;
  const changeId: string = proposal.json().pending.id;
  const decided = await call(t, {
    method: 'POST',
    url: `/api/admin/changes/${changeId}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
  if (decided.statusCode !== 200) return decided;
  const { rows } = await t.services.pool.query<{ id: string }>(
    "SELECT result->>'transactionId' AS id FROM staff_changes WHERE id = $1",
    [changeId],
  );
  const rowId = id ?? rows[0]?.id;
  const row = await call(t, { url: `/api/admin/transactions/${rowId}`, cookie: approver.cookie });
  return row.statusCode === 404 ? answer(200, { ok: true }) : row;
}

function propose(admin: SignedInUser, body: Body) {
  return call(t, {
    method: 'POST',
    url: '/api/admin/transactions',
    cookie: admin.cookie,
    body: confirmed(admin, body),
  });
}

async function create(admin: SignedInUser, body: Body) {
  return approvedChange(await propose(admin, body), ledgerApprover, null);
}

function proposeEdit(admin: SignedInUser, id: string, body: Body) {
  return call(t, {
    method: 'PATCH',
    url: `/api/admin/transactions/${id}`,
    cookie: admin.cookie,
    body: confirmed(admin, body),
  });
}

async function edit(admin: SignedInUser, id: string, body: Body) {
  return approvedChange(await proposeEdit(admin, id, body), ledgerApprover, id);
}

async function remove(admin: SignedInUser, id: string, reason: string) {
  const proposal = await call(t, {
    method: 'DELETE',
    url: `/api/admin/transactions/${id}`,
    cookie: admin.cookie,
    body: { reason, stepUp: stepUpFor(admin) },
  });
  return approvedChange(proposal, ledgerApprover, id);
}

/** A hand completion proposed by `admin` and approved by `approver`. */
async function complete(
  admin: SignedInUser,
  id: string,
  reference: string,
  over: Body = {},
  approver = payoutApprover,
) {
  const proposal = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/complete`,
    cookie: admin.cookie,
    body: confirmed(admin, { reference, ...over }),
  });
  const done = await approvedChange(proposal, approver, id);
  // The customer's mail is queued by the approval; its commit leaves delivery to the job.
  await t.services.outbox.deliver({ wait: 'all' });
  return done;
}

function approve(admin: SignedInUser, id: string, over: Body = {}) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: admin.cookie,
    body: confirmed(admin, over),
  });
}

/** A crypto withdrawal approved by `admin`: from then on it may be completed by hash. */
async function approved(admin: SignedInUser, id: string) {
  const res = await approve(admin, id);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().transaction).toMatchObject({ status: 'pending', payoutState: 'approved' });
}

function reject(admin: SignedInUser, id: string, reason: string, over: Body = {}) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/reject`,
    cookie: admin.cookie,
    body: confirmed(admin, { reason, ...over }),
  });
}

/** The edit form sent back with some fields changed, as the Edit dialog does. */
function editBody(tx: Record<string, unknown>, over: Body = {}): Body {
  return {
    assetId: tx.assetId,
    type: tx.type,
    cryptoAmount: tx.amount,
    usdAmount: tx.usdAmount,
    audAmount: tx.audAmount ?? '',
    status: tx.status,
    transactionDate: tx.date,
    withdrawalAddress: tx.withdrawalAddress ?? '',
    transactionHash: tx.transactionHash ?? '',
    reason: 'Correction, ticket 43',
    ...over,
  };
}

describe('who may call', () => {
  it('refuses a customer on every admin transactions route, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    const id = '00000000-0000-4000-8000-000000000000';
    const calls = [
      { method: 'GET' as const, url: '/api/admin/transactions' },
      { method: 'GET' as const, url: `/api/admin/transactions/${id}` },
      { method: 'POST' as const, url: '/api/admin/transactions', body: deposit(customer.userId) },
      { method: 'PATCH' as const, url: `/api/admin/transactions/${id}`, body: {} },
      { method: 'DELETE' as const, url: `/api/admin/transactions/${id}`, body: { reason: 'x' } },
      { method: 'GET' as const, url: '/api/admin/withdrawals/pending' },
      { method: 'POST' as const, url: `/api/admin/withdrawals/${id}/complete`, body: {} },
      { method: 'POST' as const, url: `/api/admin/withdrawals/${id}/approve`, body: {} },
      { method: 'POST' as const, url: `/api/admin/withdrawals/${id}/reject`, body: {} },
    ];
    for (const c of calls) {
      const res = await withoutChange(t, () => call(t, { ...c, cookie: customer.cookie }));
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(403);
    }
  });
});

describe('Add Transaction validation', () => {
  it.each([
    ['no customer', { userId: '' }, ADMIN_TX_MSG.requiredFields],
    ['no asset', { assetId: '' }, ADMIN_TX_MSG.requiredFields],
    ['no crypto amount', { cryptoAmount: '' }, ADMIN_TX_MSG.requiredFields],
    ['no USD amount', { usdAmount: '' }, ADMIN_TX_MSG.requiredFields],
    ['no type', { type: '' }, ADMIN_TX_MSG.requiredFields],
    ['no date', { transactionDate: '' }, ADMIN_TX_MSG.requiredFields],
    ['no reason', { reason: '  ' }, ADMIN_TX_MSG.reasonRequired],
    [
      'more decimals than the asset has',
      { cryptoAmount: '0.000000001' },
      'Amount can have at most 8 decimal places for BTC',
    ],
    ['a zero amount', { cryptoAmount: '0' }, 'Amount must be greater than 0'],
    ['cents beyond two', { usdAmount: '1.001' }, ADMIN_TX_MSG.usdInvalid],
    [
      'a withdrawal without an address',
      { type: 'withdrawal', status: 'pending' },
      ADMIN_TX_MSG.withdrawalAddressRequired,
    ],
    [
      'a withdrawal to a malformed address',
      { type: 'withdrawal', status: 'pending', withdrawalAddress: 'not-an-address' },
      'Invalid Bitcoin address format',
    ],
    [
      'a bank transfer without a BSB',
      {
        type: 'bank_transfer',
        assetId: '',
        cryptoAmount: '',
        bank: { accountName: 'J Citizen', accountNumber: '12345678', bsbNumber: '' },
      },
      ADMIN_TX_MSG.bankDetailsRequired,
    ],
  ])('refuses %s with the spec message, changing nothing', async (_what, over, message) => {
    const customer = await verifiedCustomer(t);
    const res = await withoutChange(t, () => create(adminA, deposit(customer.userId, over)));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
  });
});

describe('the ledger effect of each change', () => {
  it('a pending deposit is edited and re-applied; completed, it credits and is final; a pending one is deleted', async () => {
    const customer = await verifiedCustomer(t);
    const res = await create(adminA, deposit(customer.userId, { status: 'pending' }));
    expect(res.statusCode).toBe(200);
    const tx = res.json().transaction;
    expect(tx).toMatchObject({
      type: 'deposit',
      direction: 'credit',
      assetId: 'BTC',
      amount: '1',
      usdAmount: '65000.00',
      audAmount: '98800.00',
      status: 'pending',
      date: NOW,
      // Recorded as the proposer's, whoever approved it.
      createdBy: adminA.userId,
      customer: { id: customer.userId, email: customer.email },
    });
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '0', held: '0' });

    const bigger = await edit(adminB, tx.id, editBody(tx, { cryptoAmount: '1.25' }));
    expect(bigger.statusCode).toBe(200);
    expect(bigger.json().transaction).toMatchObject({ amount: '1.25', updatedBy: adminB.userId });
    // Moving it to another asset, still pending: nothing credited anywhere yet.
    const moved = await edit(
      adminA,
      tx.id,
      editBody(bigger.json().transaction, { assetId: 'ETH', cryptoAmount: '2' }),
    );
    expect(moved.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '0', held: '0' });
    const arrived = await edit(
      adminB,
      tx.id,
      editBody(moved.json().transaction, { status: 'completed' }),
    );
    expect(arrived.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '0', held: '0' });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '0' });
    await expectReconciled(t);

    // The customer sees it in their history.
    const history = await call(t, { url: '/api/transactions', cookie: customer.cookie });
    expect(history.json().items[0]).toMatchObject({ id: tx.id, amount: '2', status: 'completed' });

    // Completed, it is final: corrected by an adjustment that names it, never edited.
    const completed = arrived.json().transaction;
    for (const refused of [
      () => edit(adminA, tx.id, editBody(completed, { status: 'pending' })),
      () => remove(adminA, tx.id, 'Entered by mistake'),
    ]) {
      const res = await withoutChange(t, refused);
      expect([res.statusCode, errorOf(res).message]).toEqual([409, ADMIN_TX_MSG.completedFinal]);
    }

    const other = (await create(adminA, deposit(customer.userId, { status: 'pending' }))).json()
      .transaction;
    const deleted = await remove(adminA, other.id, 'Entered by mistake');
    expect(deleted.statusCode).toBe(200);
    const gone = await call(t, {
      url: `/api/admin/transactions/${other.id}`,
      cookie: adminA.cookie,
    });
    expect(gone.statusCode).toBe(404);
    const { rows } = await t.services.pool.query(
      'SELECT deleted_at, updated_by FROM transactions WHERE id = $1',
      [other.id],
    );
    expect(rows[0].deleted_at).not.toBeNull();
    expect(rows[0].updated_by).toBe(adminA.userId);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '0', held: '0' });

    // Each change's approval is audited by its approver, naming the proposer and the reason.
    const audits = await auditRows(tx.id);
    expect(audits.map((a) => [a.action, a.actor_id, a.after?.proposedBy])).toEqual([
      ['transaction.create', ledgerApprover.userId, adminA.userId],
      ['transaction.update', ledgerApprover.userId, adminB.userId],
      ['transaction.update', ledgerApprover.userId, adminA.userId],
      ['transaction.update', ledgerApprover.userId, adminB.userId],
    ]);
    expect(audits[0]?.reason).toContain('Wire received, ticket 42');
    expect(audits[1]?.reason).toContain('Correction, ticket 43');
    expect(audits[1]?.before).toMatchObject({ amount: '1', status: 'pending' });
    expect(audits[1]?.after).toMatchObject({ amount: '1.25', status: 'pending' });
    const removal = await auditRows(other.id);
    expect(removal.map((a) => a.action)).toEqual(['transaction.create', 'transaction.delete']);
    expect(removal[1]?.after).toMatchObject({ deleted: true });
    expect(removal[1]?.reason).toContain('Entered by mistake');
  });

  it('a completed sell debits, a pending sell holds, a buy credits; USDC gets its wallet on first use', async () => {
    const customer = await verifiedCustomer(t);
    const buy = await create(
      adminA,
      deposit(customer.userId, {
        type: 'buy',
        assetId: 'USDC',
        cryptoAmount: '500.5',
        usdAmount: '500.50',
      }),
    );
    expect(buy.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'USDC')).toEqual({ balance: '500.5', held: '0' });
    const sell = await create(
      adminA,
      deposit(customer.userId, {
        type: 'sell',
        assetId: 'USDC',
        cryptoAmount: '100',
        usdAmount: '100.00',
        status: 'pending',
      }),
    );
    expect(sell.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'USDC')).toEqual({ balance: '500.5', held: '100' });
    const sold = await edit(
      adminB,
      sell.json().transaction.id,
      editBody(sell.json().transaction, { status: 'completed' }),
    );
    expect(sold.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'USDC')).toEqual({ balance: '400.5', held: '0' });
    await expectReconciled(t);
  });

  it('refuses any change that would leave less than nothing available, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    const credit = (await create(adminA, deposit(customer.userId))).json().transaction;
    const sell = await create(
      adminA,
      deposit(customer.userId, {
        type: 'sell',
        cryptoAmount: '0.6',
        usdAmount: '39000.00',
        status: 'pending',
      }),
    );
    expect(sell.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.6' });

    const grow = await withoutChange(t, () =>
      edit(
        adminB,
        sell.json().transaction.id,
        editBody(sell.json().transaction, { cryptoAmount: '1.5' }),
      ),
    );
    expect(grow.statusCode).toBe(400);
    expect(errorOf(grow)).toEqual({
      error: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. You have 0.40000000 BTC available',
    });
    // The credit it was sold from is final: it is neither shrunk nor deleted.
    const shrink = await withoutChange(t, () =>
      edit(adminB, credit.id, editBody(credit, { cryptoAmount: '0.5' })),
    );
    expect(errorOf(shrink)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.completedFinal });
    const del = await withoutChange(t, () => remove(adminB, credit.id, 'Mistake'));
    expect(errorOf(del)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.completedFinal });
    const oversell = await withoutChange(t, () =>
      create(adminA, deposit(customer.userId, { type: 'sell', cryptoAmount: '0.5' })),
    );
    expect(errorOf(oversell)).toEqual({
      error: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. You have 0.40000000 BTC available',
    });
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.6' });
  });

  it('does not credit the same chain deposit twice', async () => {
    const customer = await verifiedCustomer(t);
    const hash = 'c0'.repeat(32);
    expect(
      (await create(adminA, deposit(customer.userId, { transactionHash: hash }))).statusCode,
    ).toBe(200);
    const twice = await withoutChange(t, () =>
      create(adminA, deposit(customer.userId, { transactionHash: hash })),
    );
    expect(twice.statusCode).toBe(409);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
  });
});

describe('withdrawal processing', () => {
  it('an admin-recorded withdrawal holds; its author cannot approve it; a second admin approves and completes it', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const recorded = await create(
      adminA,
      deposit(customer.userId, {
        type: 'withdrawal',
        cryptoAmount: '0.3',
        usdAmount: '19500.00',
        status: 'pending',
        withdrawalAddress: GOOD_ADDRESS.BTC,
      }),
    );
    expect(recorded.statusCode).toBe(200);
    const id = recorded.json().transaction.id;
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.3' });

    const queue = await call(t, { url: '/api/admin/withdrawals/pending', cookie: adminB.cookie });
    expect(queue.json().items.map((i: { id: string }) => i.id)).toContain(id);

    const own = await withoutChange(t, () => approve(adminA, id));
    expect(own.statusCode).toBe(403);
    expect(errorOf(own)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    // Not approved yet: nobody completes it.
    const early = await withoutChange(t, () => complete(adminB, id, 'ab'.repeat(32)));
    expect([early.statusCode, errorOf(early)]).toEqual([
      409,
      { error: 'CONFLICT', message: PAYOUT_MSG.notApproved },
    ]);

    await approved(adminB, id);
    // Approval moves no money: the amount stays held until the payout is completed.
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.3' });
    const noHash = await withoutChange(t, () => complete(adminB, id, ' '));
    expect(errorOf(noHash)).toEqual({
      error: 'VALIDATION_FAILED',
      message: ADMIN_TX_MSG.hashRequired,
    });

    const done = await complete(adminB, id, 'ab'.repeat(32));
    expect(done.statusCode).toBe(200);
    expect(done.json().transaction).toMatchObject({
      status: 'completed',
      transactionHash: 'ab'.repeat(32),
      processedBy: adminB.userId,
      // No Bitcoin node in this app: the typed hash is taken on trust, and says so.
      payoutState: 'unverified',
    });
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '0.7', held: '0' });
    expect(mailsTo(t, customer.email).at(-1)).toContain('Your withdrawal has been sent');
    // Each two-person change is audited by its approver, naming its proposer.
    expect((await auditRows(id)).map((a) => [a.action, a.actor_id, a.after?.proposedBy])).toEqual([
      ['transaction.create', ledgerApprover.userId, adminA.userId],
      ['withdrawal.approve', adminB.userId, undefined],
      ['withdrawal.complete', payoutApprover.userId, adminB.userId],
    ]);
    await expectReconciled(t);
  });

  it('an admin who edited a customer request cannot approve it; Add and Edit cannot complete a payout', async () => {
    const { customer, id } = await customerWithdrawal('ETH', '2', '1');
    const tx = (
      await call(t, { url: `/api/admin/transactions/${id}`, cookie: adminA.cookie })
    ).json().transaction;
    expect(tx.customer.email).toBe(customer.email);

    const selfComplete = await withoutChange(t, () =>
      edit(adminA, id, editBody(tx, { status: 'completed' })),
    );
    // A payout's status moves only through Complete and Reject.
    expect(errorOf(selfComplete)).toEqual({
      error: 'CONFLICT',
      message: ADMIN_TX_MSG.payoutStatusByEdit,
    });

    // The amount the customer confirmed is theirs: an edit of it is refused.
    const redirected = await withoutChange(t, () =>
      edit(adminA, id, editBody(tx, { cryptoAmount: '0.5' })),
    );
    expect(errorOf(redirected)).toEqual({
      error: 'CONFLICT',
      message: ADMIN_TX_MSG.customerPayoutLocked,
    });
    const redated = await edit(adminA, id, editBody(tx, { transactionDate: NOW }));
    expect(redated.statusCode).toBe(200);
    // Amount 1 plus the 0.002 network fee is still held.
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });

    const byEditor = await withoutChange(t, () => approve(adminA, id));
    expect(errorOf(byEditor)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    await approved(adminB, id);
    expect((await complete(adminB, id, `0x${'cd'.repeat(32)}`)).statusCode).toBe(200);
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '0.998', held: '0' });

    const direct = await withoutChange(t, () =>
      create(
        adminA,
        deposit(customer.userId, {
          type: 'withdrawal',
          assetId: 'ETH',
          cryptoAmount: '0.1',
          withdrawalAddress: GOOD_ADDRESS.ETH,
          status: 'completed',
        }),
      ),
    );
    expect(errorOf(direct)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutPending });
    await expectReconciled(t);
  });

  it('rejects with a reason the customer sees; the hold is released', async () => {
    const { customer, id } = await customerWithdrawal('BTC', '1', '0.5');
    const noReason = await withoutChange(t, () => reject(adminA, id, ''));
    expect(errorOf(noReason)).toEqual({
      error: 'VALIDATION_FAILED',
      message: ADMIN_TX_MSG.rejectReasonRequired,
    });
    const res = await reject(adminA, id, 'Address on a sanctions list');
    expect(res.statusCode).toBe(200);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    const history = await call(t, { url: '/api/transactions', cookie: customer.cookie });
    expect(history.json().items[0]).toMatchObject({
      id,
      status: 'failed',
      reason: 'Address on a sanctions list',
    });
    expect(mailsTo(t, customer.email).at(-1)).toContain('Address on a sanctions list');
    const audits = await auditRows(id);
    expect(audits.map((a) => [a.action, a.reason])).toEqual([
      ['withdrawal.reject', 'Address on a sanctions list'],
    ]);
    await expectReconciled(t);
  });

  it('bank transfers: recorded with banking details, listed oldest first, completed with a bank reference', async () => {
    const customer = await verifiedCustomer(t);
    const older = await create(adminA, {
      userId: customer.userId,
      type: 'bank_transfer',
      usdAmount: '100.00',
      status: 'pending',
      transactionDate: '2020-01-01T00:00:00.000Z',
      bank: { accountName: 'Jane Citizen', accountNumber: '12345678', bsbNumber: '062000' },
      reason: 'Customer asked by phone, ticket 7',
    });
    expect(older.statusCode).toBe(200);
    const bank = older.json().transaction;
    expect(bank).toMatchObject({
      type: 'bank_transfer',
      direction: 'none',
      assetId: 'AUD',
      currency: 'AUD',
      usdAmount: '100.00',
      audAmount: '152.00',
      bankTransfer: {
        accountName: 'Jane Citizen',
        accountNumber: '12345678',
        bsbNumber: '062000',
        amountFiat: '152.00',
        currency: 'AUD',
      },
    });
    // Account details are encrypted at rest.
    const { rows } = await t.services.pool.query(
      'SELECT account_number_encrypted FROM bank_transfers WHERE transaction_id = $1',
      [bank.id],
    );
    expect(rows[0].account_number_encrypted).not.toContain('12345678');
    // The list shows the row without the account; opening it shows the account.
    const listed = await call(t, {
      url: `/api/admin/transactions?q=${bank.id}`,
      cookie: adminB.cookie,
    });
    expect(listed.json().items).toEqual([
      expect.objectContaining({ id: bank.id, usdAmount: '100.00', audAmount: '152.00' }),
    ]);
    expect(listed.body).not.toContain('12345678');
    const opened = await call(t, {
      url: `/api/admin/transactions/${bank.id}`,
      cookie: adminB.cookie,
    });
    expect(opened.json().transaction.bankTransfer).toMatchObject({ accountNumber: '12345678' });

    const queue = (await call(t, { url: '/api/admin/withdrawals/pending', cookie: adminB.cookie }))
      .json()
      .items.map((i: { id: string }) => i.id);
    expect(queue[0]).toBe(bank.id);

    const noRef = await withoutChange(t, () => complete(adminB, bank.id, ''));
    expect(errorOf(noRef).message).toBe(ADMIN_TX_MSG.bankReferenceRequired);
    expect((await complete(adminA, bank.id, 'WBC 2025/0001')).statusCode).toBe(403);
    const done = await complete(adminB, bank.id, '  WBC   2025/0001 ');
    expect(done.json().transaction).toMatchObject({
      status: 'completed',
      transactionHash: 'WBC 2025/0001',
    });
    expect(mailsTo(t, customer.email).at(-1)).toContain('Your bank transfer has been sent');
    await expectReconciled(t);
  });
});

/** The admin view of a transaction, as the Edit dialog opens it. */
async function opened(id: string) {
  const res = await call(t, { url: `/api/admin/transactions/${id}`, cookie: adminA.cookie });
  expect(res.statusCode).toBe(200);
  return res.json().transaction;
}

/** A customer funded with `funded` of an asset who asked to withdraw `amount` of it (pending). */
async function customerWithdrawal(assetId: 'BTC' | 'ETH', funded: string, amount: string) {
  const customer = await verifiedCustomer(t);
  await fund(t, customer.userId, assetId, funded);
  const req = await requestWithdrawal(t, customer, {
    assetId,
    amount,
    address: GOOD_ADDRESS[assetId],
  });
  expect(req.statusCode).toBe(200);
  return { customer, id: req.json().transaction.id as string };
}

/** A customer with 2 ETH who asked to withdraw 1 ETH (pending, 1.002 held). */
function pendingEthWithdrawal() {
  return customerWithdrawal('ETH', '2', '1');
}

/**
 * The hash staff type for an ETH payout: a new one for every test, as one transaction's
 * output settles one payout (on this unwatched chain, a hash another payout names is refused).
 */
let ETH_HASH = '';
beforeEach(() => {
  ETH_HASH = `0x${randomBytes(32).toString('hex')}`;
});

/** A customer's 0.1 ETH withdrawal, approved by admin C and paid out by admin B. */
async function completedEthWithdrawal() {
  const { customer, id } = await customerWithdrawal('ETH', '2', '0.1');
  await approved(adminC, id);
  expect((await complete(adminB, id, ETH_HASH)).statusCode).toBe(200);
  // 0.1 and its 0.002 fee left.
  expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '1.898', held: '0' });
  return { customer, id };
}

const BANK = { accountName: 'Jane Citizen', accountNumber: '12345678', bsbNumber: '062000' };

/** A bank transfer admin A recorded, pending. */
async function pendingBankTransfer(userId: string) {
  const res = await create(adminA, {
    userId,
    type: 'bank_transfer',
    usdAmount: '100.00',
    status: 'pending',
    transactionDate: NOW,
    bank: BANK,
    reason: 'Customer asked by phone, ticket 7',
  });
  expect(res.statusCode).toBe(200);
  return res.json().transaction;
}

/** The bank transfer's edit form, as the Edit dialog sends it. */
function bankEditBody(tx: Record<string, unknown>, over: Body = {}): Body {
  return {
    type: 'bank_transfer',
    usdAmount: tx.usdAmount,
    audAmount: tx.audAmount ?? '',
    status: tx.status,
    transactionDate: tx.date,
    transactionHash: tx.transactionHash ?? '',
    bank: BANK,
    reason: 'Correction, ticket 44',
    ...over,
  };
}

describe('four eyes nobody can sidestep', () => {
  it('A edits, B edits: neither may approve, even after the other edited last; C may', async () => {
    const { customer, id } = await pendingEthWithdrawal();
    // Edits of what the customer did not confirm (the date): they still make editors.
    const first = await edit(
      adminA,
      id,
      editBody(await opened(id), { transactionDate: '2025-08-02T10:00:00.000Z' }),
    );
    expect(first.statusCode).toBe(200);
    const second = await edit(
      adminB,
      id,
      editBody(await opened(id), { transactionDate: '2025-08-03T10:00:00.000Z' }),
    );
    expect(second.statusCode).toBe(200);
    expect(second.json().transaction).toMatchObject({
      amount: '1',
      status: 'pending',
      updatedBy: adminB.userId,
      editorIds: [adminA.userId, adminB.userId],
    });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });

    // A is no longer the last editor, yet edited it: refused.
    const byA = await withoutChange(t, () => approve(adminA, id));
    expect(byA.statusCode).toBe(403);
    expect(errorOf(byA)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    const byB = await withoutChange(t, () => approve(adminB, id));
    expect(byB.statusCode).toBe(403);
    expect(errorOf(byB)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    await expectReconciled(t);

    await approved(adminC, id);
    const byC = await complete(adminC, id, ETH_HASH);
    expect(byC.statusCode).toBe(200);
    expect(byC.json().transaction).toMatchObject({
      status: 'completed',
      processedBy: adminC.userId,
      transactionHash: ETH_HASH,
    });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '0.998', held: '0' });
    await expectReconciled(t);
  });

  it('the admin who recorded a withdrawal cannot approve it after another admin edited it', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const recorded = await create(
      adminA,
      deposit(customer.userId, {
        type: 'withdrawal',
        cryptoAmount: '0.3',
        status: 'pending',
        withdrawalAddress: GOOD_ADDRESS.BTC,
      }),
    );
    const tx = recorded.json().transaction;
    expect((await edit(adminB, tx.id, editBody(tx, { cryptoAmount: '0.2' }))).statusCode).toBe(200);
    const byCreator = await withoutChange(t, () => approve(adminA, tx.id));
    expect(errorOf(byCreator)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    const byEditor = await withoutChange(t, () => approve(adminB, tx.id));
    expect(errorOf(byEditor)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    await approved(adminC, tx.id);
    expect((await complete(adminC, tx.id, 'ae'.repeat(32))).statusCode).toBe(200);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '0.8', held: '0' });
  });
});

describe('approving a crypto withdrawal', () => {
  it('is refused to the admin who recorded it, changing nothing and auditing nothing', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const recorded = await create(
      adminA,
      deposit(customer.userId, {
        type: 'withdrawal',
        cryptoAmount: '0.3',
        status: 'pending',
        withdrawalAddress: GOOD_ADDRESS.BTC,
      }),
    );
    expect(recorded.statusCode, recorded.body).toBe(200);
    const id: string = recorded.json().transaction.id;
    const own = await withoutChange(t, () => approve(adminA, id));
    expect([own.statusCode, errorOf(own)]).toEqual([
      403,
      { error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes },
    ]);
    expect((await auditRows(id)).map((a) => a.action)).toEqual(['transaction.create']);
    expect(await opened(id)).toMatchObject({ status: 'pending', payoutState: null });
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.3' });
  });

  it('is refused for a bank transfer: it is completed with the bank’s reference', async () => {
    const customer = await verifiedCustomer(t);
    const bank = await pendingBankTransfer(customer.userId);
    const res = await withoutChange(t, () => approve(adminB, bank.id));
    expect([res.statusCode, errorOf(res)]).toEqual([
      409,
      { error: 'CONFLICT', message: PAYOUT_MSG.bankNotApproved },
    ]);
  });

  it('happens once: a second approval is refused, changing nothing', async () => {
    const { id } = await pendingEthWithdrawal();
    await approved(adminB, id);
    for (const admin of [adminB, adminC]) {
      const again = await withoutChange(t, () => approve(admin, id));
      expect([again.statusCode, errorOf(again)]).toEqual([
        409,
        { error: 'CONFLICT', message: PAYOUT_MSG.alreadyApproved },
      ]);
    }
    const approvals = (await auditRows(id)).filter((a) => a.action === 'withdrawal.approve');
    expect(approvals.map((a) => a.actor_id)).toEqual([adminB.userId]);
  });

  it('comes before completion: completing an unapproved withdrawal is refused, changing nothing', async () => {
    const { customer, id } = await pendingEthWithdrawal();
    for (const admin of [adminA, adminB]) {
      const res = await withoutChange(t, () => complete(admin, id, ETH_HASH));
      expect([res.statusCode, errorOf(res)]).toEqual([
        409,
        { error: 'CONFLICT', message: PAYOUT_MSG.notApproved },
      ]);
    }
    expect(await opened(id)).toMatchObject({ status: 'pending', transactionHash: null });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });
  });

  it('an approved withdrawal is paid as approved: an Edit of its amount or address is refused', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const recorded = await create(
      adminA,
      deposit(customer.userId, {
        type: 'withdrawal',
        cryptoAmount: '0.3',
        status: 'pending',
        withdrawalAddress: GOOD_ADDRESS.BTC,
      }),
    );
    const tx = recorded.json().transaction;
    await approved(adminB, tx.id);
    for (const over of [
      { cryptoAmount: '0.9' },
      { withdrawalAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
      { transactionDate: '2025-08-02T10:00:00.000Z' },
    ]) {
      const res = await withoutChange(t, () => edit(adminA, tx.id, editBody(tx, over)));
      expect([over, res.statusCode, errorOf(res)]).toEqual([
        over,
        409,
        { error: 'CONFLICT', message: PAYOUT_MSG.approvedNoEdit },
      ]);
    }
    expect(await opened(tx.id)).toMatchObject({ amount: '0.3', editorIds: [] });
  });

  it('an approved withdrawal not yet in a batch may still be rejected; the hold is released', async () => {
    const { customer, id } = await pendingEthWithdrawal();
    await approved(adminB, id);
    const res = await reject(adminC, id, 'Address on a sanctions list');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().transaction).toMatchObject({ status: 'failed' });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '0' });
    // Rejected, it is no longer waiting to be paid on chain.
    const payouts = await call(t, {
      url: '/api/admin/payouts?chain=ethereum',
      cookie: adminA.cookie,
    });
    expect(payouts.statusCode, payouts.body).toBe(200);
    expect(payouts.json().waiting.map((p: { id: string }) => p.id)).not.toContain(id);
    const late = await withoutChange(t, () => complete(adminB, id, ETH_HASH));
    expect(late.statusCode).toBe(409);
  });
});

describe('history that cannot be rewritten', () => {
  it('refuses to edit a completed withdrawal (0.1 → 0.9 ETH, new address), by anyone', async () => {
    const { customer, id } = await completedEthWithdrawal();
    const tx = await opened(id);
    const rewrite = editBody(tx, {
      cryptoAmount: '0.9',
      withdrawalAddress: GOOD_ADDRESS['USDT-ERC20'],
    });
    for (const admin of [adminA, adminB, adminC]) {
      const res = await withoutChange(t, () => edit(admin, id, rewrite));
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({
        error: 'CONFLICT',
        message: ADMIN_TX_MSG.payoutCompletedFinal,
      });
    }
    // Nor a change of type or status, nor a "harmless" edit of the date.
    for (const over of [
      { type: 'sell' },
      { status: 'pending' },
      { status: 'failed' },
      { transactionDate: '2025-01-01T00:00:00.000Z' },
    ]) {
      const res = await withoutChange(t, () => edit(adminC, id, editBody(tx, over)));
      expect([over, res.statusCode, errorOf(res).message]).toEqual([
        over,
        409,
        ADMIN_TX_MSG.payoutCompletedFinal,
      ]);
    }
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '1.898', held: '0' });
    expect(await opened(id)).toMatchObject({
      amount: '0.1',
      withdrawalAddress: GOOD_ADDRESS.ETH,
      processedBy: adminB.userId,
      transactionHash: ETH_HASH,
    });
  });

  it('refuses to edit a completed bank transfer, its amount or its account', async () => {
    const customer = await verifiedCustomer(t);
    const bank = await pendingBankTransfer(customer.userId);
    expect((await complete(adminB, bank.id, 'WBC-20250801-77')).statusCode).toBe(200);
    const tx = await opened(bank.id);
    for (const over of [
      { usdAmount: '900.00' },
      { bank: { ...BANK, accountNumber: '87654321', bsbNumber: '012003' } },
      { status: 'pending' },
    ]) {
      const res = await withoutChange(t, () => edit(adminC, bank.id, bankEditBody(tx, over)));
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({
        error: 'CONFLICT',
        message: ADMIN_TX_MSG.payoutCompletedFinal,
      });
    }
    const del = await withoutChange(t, () => remove(adminC, bank.id, 'Duplicate'));
    expect(errorOf(del)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutCompletedFinal });
    expect((await opened(bank.id)).bankTransfer).toMatchObject(BANK);
  });

  it('refuses to edit or delete a rejected payout', async () => {
    const { customer, id } = await customerWithdrawal('BTC', '1', '0.5');
    expect((await reject(adminB, id, 'Address on a sanctions list')).statusCode).toBe(200);
    const tx = await opened(id);
    for (const over of [{ status: 'pending' }, { status: 'completed' }, { cryptoAmount: '0.1' }]) {
      const res = await withoutChange(t, () => edit(adminC, id, editBody(tx, over)));
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({
        error: 'CONFLICT',
        message: ADMIN_TX_MSG.payoutRejectedFinal,
      });
    }
    const del = await withoutChange(t, () => remove(adminC, id, 'Tidy up'));
    expect(errorOf(del)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutRejectedFinal });
    // Completing it now is refused too, whatever the reference.
    const late = await withoutChange(t, () => complete(adminC, id, 'ab'.repeat(32)));
    expect(late.statusCode).toBe(409);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
  });

  it("does not delete a customer's pending payout request: it is rejected, with a reason", async () => {
    const { customer, id } = await pendingEthWithdrawal();
    const del = await withoutChange(t, () => remove(adminC, id, 'Looks odd'));
    expect(errorOf(del)).toEqual({
      error: 'CONFLICT',
      message: ADMIN_TX_MSG.customerPayoutNoDelete,
    });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });
  });

  it('refuses to delete a completed withdrawal: the customer is not credited back', async () => {
    const { customer, id } = await completedEthWithdrawal();
    const res = await withoutChange(t, () => remove(adminC, id, 'Paid twice?'));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutCompletedFinal });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '1.898', held: '0' });
  });

  it('an adjustment is never edited or deleted: it is corrected by a reversing adjustment', async () => {
    const customer = await verifiedCustomer(t);
    const credit = (await create(adminA, deposit(customer.userId))).json().transaction;
    const correct = (correctsTransactionId: string, direction: string, reason: string) =>
      create(adminC, {
        userId: customer.userId,
        assetId: 'BTC',
        type: 'adjustment',
        direction,
        cryptoAmount: '0.5',
        usdAmount: '32500.00',
        transactionDate: NOW,
        correctsTransactionId,
        reason,
      });
    const adjusted = await correct(credit.id, 'credit', 'Goodwill credit, ticket 9');
    expect(adjusted.statusCode).toBe(200);
    const adjustment = adjusted.json().transaction;
    expect(adjustment).toMatchObject({ type: 'adjustment', amount: '0.5', status: 'completed' });

    const del = await withoutChange(t, () => remove(adminB, adjustment.id, 'Entered by mistake'));
    expect(del.statusCode).toBe(409);
    expect(errorOf(del)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.adjustmentFinal });
    const changed = await withoutChange(t, () =>
      edit(adminB, adjustment.id, editBody(adjustment, { type: 'deposit', cryptoAmount: '5' })),
    );
    expect(errorOf(changed)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.adjustmentFinal });
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1.5', held: '0' });

    // The correction the message points to: a reversing adjustment, both kept.
    const reversed = await correct(
      adjustment.id,
      'debit',
      'Reverses the goodwill credit, ticket 9',
    );
    expect(reversed.statusCode).toBe(200);
    expect(reversed.json().transaction.correctsTransactionId).toBe(adjustment.id);
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    const { rows: adjustments } = await t.services.pool.query(
      "SELECT direction, deleted_at FROM transactions WHERE user_id = $1 AND transaction_type = 'adjustment' ORDER BY direction",
      [customer.userId],
    );
    expect(adjustments).toEqual([
      { direction: 'credit', deleted_at: null },
      { direction: 'debit', deleted_at: null },
    ]);
  });

  it('a staking reward is not edited either', async () => {
    const customer = await verifiedCustomer(t);
    const reward = await withTransaction(t.services.pool, (client) =>
      t.services.ledger.post(client, {
        userId: customer.userId,
        assetId: 'ETH',
        type: 'staking_reward',
        direction: 'credit',
        amount: 1_000_000_000n,
        status: 'completed',
        createdBy: null,
      }),
    );
    const tx = await opened(reward.id);
    const res = await withoutChange(t, () =>
      edit(adminA, reward.id, editBody(tx, { type: 'deposit', usdAmount: '1.00' })),
    );
    expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.stakingRewardNoEdit });
  });
});

describe('a payout stays a payout; its status moves only through Complete and Reject', () => {
  it('refuses a pending withdrawal turned into a completed sell, or any other type', async () => {
    const { customer, id } = await pendingEthWithdrawal();
    const tx = await opened(id);
    for (const over of [
      { type: 'sell', status: 'completed' },
      { type: 'sell' },
      { type: 'deposit' },
      {
        type: 'bank_transfer',
        assetId: '',
        cryptoAmount: '',
        bank: BANK,
      },
    ]) {
      const res = await withoutChange(t, () => edit(adminA, id, editBody(tx, over)));
      expect([over, res.statusCode, errorOf(res).message]).toEqual([
        over,
        409,
        ADMIN_TX_MSG.payoutTypeLocked,
      ]);
    }
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });
  });

  it('refuses to turn another transaction into a withdrawal or a bank transfer', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const credit = (await create(adminA, deposit(customer.userId, { status: 'pending' }))).json()
      .transaction;
    for (const over of [
      { type: 'withdrawal', status: 'pending', withdrawalAddress: GOOD_ADDRESS.BTC },
      { type: 'bank_transfer', assetId: '', cryptoAmount: '', status: 'pending', bank: BANK },
    ]) {
      const res = await withoutChange(t, () => edit(adminB, credit.id, editBody(credit, over)));
      expect([res.statusCode, errorOf(res).message]).toEqual([409, ADMIN_TX_MSG.payoutTypeLocked]);
    }
    const bank = await pendingBankTransfer(customer.userId);
    const toDeposit = await withoutChange(t, () =>
      edit(
        adminB,
        bank.id,
        editBody(bank, { type: 'deposit', assetId: 'BTC', cryptoAmount: '1', bank: undefined }),
      ),
    );
    expect(errorOf(toDeposit)).toEqual({
      error: 'CONFLICT',
      message: ADMIN_TX_MSG.payoutTypeLocked,
    });
    expect(await wallet(customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
  });

  it("refuses a payout's status change by Edit, for withdrawals and bank transfers", async () => {
    const { customer, id } = await pendingEthWithdrawal();
    const tx = await opened(id);
    for (const status of ['completed', 'failed']) {
      const res = await withoutChange(t, () => edit(adminC, id, editBody(tx, { status })));
      expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutStatusByEdit });
    }
    const bank = await pendingBankTransfer(customer.userId);
    for (const status of ['completed', 'failed']) {
      const res = await withoutChange(t, () =>
        edit(adminC, bank.id, bankEditBody(bank, { status })),
      );
      expect(errorOf(res)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutStatusByEdit });
    }
    // Add cannot record one as completed either.
    const direct = await withoutChange(t, () =>
      create(adminA, {
        userId: customer.userId,
        type: 'bank_transfer',
        usdAmount: '100.00',
        status: 'completed',
        transactionDate: NOW,
        bank: BANK,
        reason: 'Paid already',
      }),
    );
    expect(errorOf(direct)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.payoutPending });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });
  });

  it('a pending bank transfer may still be corrected by Edit; its editor then cannot complete it', async () => {
    const customer = await verifiedCustomer(t);
    const bank = await pendingBankTransfer(customer.userId);
    const fixed = await edit(
      adminB,
      bank.id,
      bankEditBody(bank, { bank: { ...BANK, accountNumber: '11112222' } }),
    );
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().transaction.bankTransfer).toMatchObject({ accountNumber: '11112222' });
    const audits = await auditRows(bank.id);
    expect(audits.findLast((a) => a.action === 'transaction.update')).toMatchObject({
      action: 'transaction.update',
      before: {
        accountNumber: expect.stringMatching(/^••••5678 #[0-9a-f]{8}$/),
        accountName: 'Jane Citizen',
        bsbNumber: '062000',
      },
      after: {
        accountNumber: expect.stringMatching(/^••••2222 #[0-9a-f]{8}$/),
        editorIds: [adminB.userId],
      },
    });
    const byEditor = await withoutChange(t, () => complete(adminB, bank.id, 'WBC-20250801-78'));
    expect(errorOf(byEditor)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    expect((await complete(adminC, bank.id, 'WBC-20250801-78')).statusCode).toBe(200);
  });
});

describe("a customer's bank payout, funded from their crypto (product.md M11)", () => {
  it('keeps its hold through an Edit of its date, refuses an Edit of its amounts or account, and is final once paid', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'ETH', '1');
    const asked = await requestBankTransfer(t, customer, {
      ...BANK,
      amountAud: '250.5',
      assetId: 'ETH',
    });
    expect(asked.statusCode).toBe(200);
    const id: string = asked.json().transaction.id;
    const tx = await opened(id);
    expect(tx).toMatchObject({ type: 'bank_transfer', direction: 'debit', assetId: 'ETH' });
    const held = await wallet(customer.userId, 'ETH');
    expect(held?.held).toBe(tx.amount);

    for (const over of [{ usdAmount: '1.00' }, { audAmount: '999.00' }]) {
      const res = await withoutChange(t, () => edit(adminA, id, bankEditBody(tx, over)));
      expect([over, res.statusCode, errorOf(res).message]).toEqual([
        over,
        409,
        ADMIN_TX_MSG.fundedPayoutAmounts,
      ]);
    }
    // The account the customer confirmed is where it goes: staff cannot redirect it.
    const redirected = await withoutChange(t, () =>
      edit(adminA, id, bankEditBody(tx, { bank: { ...BANK, accountNumber: '55556666' } })),
    );
    expect(errorOf(redirected)).toEqual({
      error: 'CONFLICT',
      message: ADMIN_TX_MSG.customerPayoutLocked,
    });
    const moved = await edit(
      adminA,
      id,
      bankEditBody(tx, { transactionDate: '2025-08-02T10:00:00.000Z' }),
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json().transaction).toMatchObject({
      direction: 'debit',
      assetId: 'ETH',
      amount: tx.amount,
      usdAmount: tx.usdAmount,
      audAmount: tx.audAmount,
      bankTransfer: { accountNumber: '12345678', amountFiat: tx.bankTransfer.amountFiat },
      editorIds: [adminA.userId],
    });
    expect(await wallet(customer.userId, 'ETH')).toEqual(held);
    await expectReconciled(t);

    const byEditor = await withoutChange(t, () => complete(adminA, id, 'NAB-20250801-5'));
    expect(errorOf(byEditor)).toEqual({ error: 'FORBIDDEN', message: ADMIN_TX_MSG.fourEyes });
    const crypto = await withoutChange(t, () => complete(adminB, id, ETH_HASH));
    expect(errorOf(crypto).message).toBe(REFERENCE_MSG.bankReference);
    expect((await complete(adminB, id, 'NAB-20250801-5')).statusCode).toBe(200);
    expect(await wallet(customer.userId, 'ETH')).toEqual({
      balance: fromMinor('ETH', 10n ** 18n - parseAmount(tx.amount, 18)),
      held: '0',
    });
    const completion = (await auditRows(id)).find((a) => a.action === 'withdrawal.complete');
    // Every staff member reads the changes waiting: the account number is masked there.
    expect(completion?.after).toMatchObject({
      accountNumber: expect.stringMatching(/^••••5678 #[0-9a-f]{8}$/),
      transactionHash: 'NAB-20250801-5',
      processedBy: adminB.userId,
      amount: tx.amount,
      assetId: 'ETH',
    });

    const paid = await opened(id);
    const rewrite = await withoutChange(t, () =>
      edit(adminC, id, bankEditBody(paid, { bank: { ...BANK, accountNumber: '99990000' } })),
    );
    expect(errorOf(rewrite)).toEqual({
      error: 'CONFLICT',
      message: ADMIN_TX_MSG.payoutCompletedFinal,
    });
    const del = await withoutChange(t, () => remove(adminC, id, 'Refund'));
    expect(errorOf(del).message).toBe(ADMIN_TX_MSG.payoutCompletedFinal);
  });
});

describe('references that prove a payout left', () => {
  it('refuses "hello" as a chain hash, changing nothing; stores an upper-case 0x hash lower-case', async () => {
    const { customer, id } = await pendingEthWithdrawal();
    await approved(adminC, id);
    const hello = await withoutChange(t, () => complete(adminB, id, 'hello'));
    expect(hello.statusCode).toBe(400);
    expect(errorOf(hello)).toEqual({ error: 'VALIDATION_FAILED', message: REFERENCE_MSG.evmHash });
    // Two hex digits short of a hash.
    const bare = await withoutChange(t, () => complete(adminB, id, `${'ab'.repeat(31)}`));
    expect(errorOf(bare).message).toBe(REFERENCE_MSG.evmHash);
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '1.002' });

    const done = await complete(adminB, id, `0x${'AB'.repeat(32)}`);
    expect(done.statusCode).toBe(200);
    expect(done.json().transaction.transactionHash).toBe(`0x${'ab'.repeat(32)}`);
    expect(mailsTo(t, customer.email).at(-1)).toContain(`0x${'ab'.repeat(32)}`);
  });

  it('stores a Bitcoin hash bare and lower-case, and a bank reference tidied; refuses a bad one', async () => {
    const { customer, id } = await customerWithdrawal('BTC', '1', '0.1');
    await approved(adminC, id);
    const done = await complete(adminB, id, `0x${'CD'.repeat(32)}`);
    expect(done.json().transaction.transactionHash).toBe('cd'.repeat(32));

    const bank = await pendingBankTransfer(customer.userId);
    for (const ref of ['hello', 'REF-1', '12345', 'ABCDEFG']) {
      const res = await withoutChange(t, () => complete(adminB, bank.id, ref));
      expect([ref, res.statusCode, errorOf(res).message]).toEqual([
        ref,
        400,
        REFERENCE_MSG.bankReference,
      ]);
    }
  });

  it('the audit row of a completion names the account, the reference and who paid it', async () => {
    const customer = await verifiedCustomer(t);
    const bank = await pendingBankTransfer(customer.userId);
    expect((await complete(adminB, bank.id, 'WBC-20250801-79')).statusCode).toBe(200);
    const row = (await auditRows(bank.id)).find((a) => a.action === 'withdrawal.complete');
    expect(row?.before).toMatchObject({
      status: 'pending',
      transactionHash: null,
      processedBy: null,
      accountName: 'Jane Citizen',
      // Masked, with a keyed fingerprint of the whole number (every staff member reads it).
      accountNumber: expect.stringMatching(/^••••5678 #[0-9a-f]{8}$/),
      bsbNumber: '062000',
    });
    expect(row?.after).toMatchObject({
      status: 'completed',
      transactionHash: 'WBC-20250801-79',
      processedBy: adminB.userId,
      accountName: 'Jane Citizen',
      accountNumber: expect.stringMatching(/^••••5678 #[0-9a-f]{8}$/),
      bsbNumber: '062000',
      amountFiat: '152.00',
      usdAmount: '100.00',
      editorIds: [],
    });
    // The creation's audit row has the account too.
    expect((await auditRows(bank.id))[0]?.after).toMatchObject({
      accountNumber: expect.stringMatching(/^••••5678 #[0-9a-f]{8}$/),
      bsbNumber: '062000',
    });
  });

  it('the audit rows of a withdrawal carry amount, fee, address, memo, reference and editors', async () => {
    const { id } = await pendingEthWithdrawal();
    const tx = await opened(id);
    const date = '2025-08-02T10:00:00.000Z';
    expect((await edit(adminA, id, editBody(tx, { transactionDate: date }))).statusCode).toBe(200);
    await approved(adminC, id);
    expect((await complete(adminB, id, ETH_HASH)).statusCode).toBe(200);
    const [update, approval, completion] = await auditRows(id);
    expect(update?.before).toMatchObject({
      amount: '1',
      fee: '0.002',
      assetId: 'ETH',
      withdrawalAddress: GOOD_ADDRESS.ETH,
      memo: null,
      editorIds: [],
    });
    // A payout keeps the date it was recorded on, whatever an edit types (the daily limit
    // counts payouts by date).
    expect(update?.after).toMatchObject({ amount: '1', date: tx.date, editorIds: [adminA.userId] });
    expect(approval).toMatchObject({ action: 'withdrawal.approve', actor_id: adminC.userId });
    expect(approval?.after).toMatchObject({
      payout: 'approved',
      assetId: 'ETH',
      address: GOOD_ADDRESS.ETH,
    });
    expect(completion?.after).toMatchObject({
      amount: '1',
      status: 'completed',
      transactionHash: ETH_HASH,
      processedBy: adminB.userId,
      editorIds: [adminA.userId],
      accountNumber: null,
    });
  });

  it('an Edit with an empty hash keeps the stored one; a typed one is normalised or refused', async () => {
    const customer = await verifiedCustomer(t);
    const h = 'e1'.repeat(32);
    const credit = await create(
      adminA,
      deposit(customer.userId, {
        assetId: 'ETH',
        cryptoAmount: '1',
        transactionHash: h,
        status: 'pending',
      }),
    );
    expect(credit.json().transaction.transactionHash).toBe(`0x${h}`);
    const tx = credit.json().transaction;
    const kept = await edit(
      adminB,
      tx.id,
      editBody(tx, { cryptoAmount: '2', transactionHash: '' }),
    );
    expect(kept.statusCode).toBe(200);
    expect(kept.json().transaction).toMatchObject({ amount: '2', transactionHash: `0x${h}` });

    const bad = await withoutChange(t, () =>
      edit(adminB, tx.id, editBody(tx, { transactionHash: 'hello' })),
    );
    expect(errorOf(bad)).toEqual({ error: 'VALIDATION_FAILED', message: REFERENCE_MSG.evmHash });
    const badAdd = await withoutChange(t, () =>
      create(adminA, deposit(customer.userId, { transactionHash: 'hello' })),
    );
    expect(errorOf(badAdd)).toEqual({ error: 'VALIDATION_FAILED', message: REFERENCE_MSG.hexHash });
    // An empty hash stays allowed on Add.
    expect(
      (await create(adminA, deposit(customer.userId, { transactionHash: '' }))).statusCode,
    ).toBe(200);
  });

  it('credits one chain deposit once, written with or without 0x or in upper case', async () => {
    const customer = await verifiedCustomer(t);
    const h = '7f'.repeat(32);
    const first = await create(
      adminA,
      deposit(customer.userId, { assetId: 'ETH', cryptoAmount: '1', transactionHash: `0x${h}` }),
    );
    expect(first.statusCode).toBe(200);
    for (const variant of [h, `0x${h.toUpperCase()}`, h.toUpperCase(), `0X${h}`]) {
      const res = await withoutChange(t, () =>
        create(
          adminA,
          deposit(customer.userId, { assetId: 'ETH', cryptoAmount: '1', transactionHash: variant }),
        ),
      );
      expect([variant, res.statusCode]).toEqual([variant, 409]);
    }
    // A deposit stored with its hash bare (as rows written before hashes were normalised
    // have it) is the same chain transaction as the 0x form.
    const bare = 'a9'.repeat(32);
    await withTransaction(t.services.pool, (client) =>
      t.services.ledger.post(client, {
        userId: customer.userId,
        assetId: 'ETH',
        type: 'deposit',
        direction: 'credit',
        amount: 10n ** 18n,
        status: 'completed',
        transactionHash: bare,
        createdBy: null,
      }),
    );
    const again = await withoutChange(t, () =>
      create(
        adminA,
        deposit(customer.userId, {
          assetId: 'ETH',
          cryptoAmount: '1',
          transactionHash: `0x${bare.toUpperCase()}`,
        }),
      ),
    );
    expect(errorOf(again)).toEqual({
      error: 'CONFLICT',
      message: 'This chain transaction was already credited as a deposit.',
    });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '2', held: '0' });
  });
});

describe('dates and amounts staff may type', () => {
  it.each([
    ['30 February', '2024-02-30T00:00:00.000Z', ADMIN_TX_MSG.dateInvalid],
    ['31 April', '2025-04-31T12:00:00Z', ADMIN_TX_MSG.dateInvalid],
    ['29 February of a common year', '2025-02-29T12:00:00Z', ADMIN_TX_MSG.dateInvalid],
    ['hour 24', '2025-08-01T24:00:00Z', ADMIN_TX_MSG.dateInvalid],
    ['an extended year', '+275760-09-13T00:00:00.000Z', ADMIN_TX_MSG.dateInvalid],
    ['a year BC', '-000001-01-01T00:00:00.000Z', ADMIN_TX_MSG.dateInvalid],
    ['no time zone', '2025-08-01T10:30:00', ADMIN_TX_MSG.dateInvalid],
    ['words', 'yesterday', ADMIN_TX_MSG.dateInvalid],
    ['before the first Bitcoin block', '2009-01-02T23:59:59Z', ADMIN_TX_MSG.dateOutOfRange],
    ['the year 1', '0001-01-01T00:00:00Z', ADMIN_TX_MSG.dateOutOfRange],
    [
      'two days ahead',
      new Date(Date.now() + 2 * 86_400_000).toISOString(),
      ADMIN_TX_MSG.dateOutOfRange,
    ],
  ])('refuses %s as a date, on Add and Edit, changing nothing', async (_what, date, message) => {
    const customer = await verifiedCustomer(t);
    const added = await withoutChange(t, () =>
      create(adminA, deposit(customer.userId, { transactionDate: date })),
    );
    expect(added.statusCode).toBe(400);
    expect(errorOf(added)).toEqual({ error: 'VALIDATION_FAILED', message });
    const tx = (await create(adminA, deposit(customer.userId))).json().transaction;
    const edited = await withoutChange(t, () =>
      edit(adminB, tx.id, editBody(tx, { transactionDate: date })),
    );
    expect(errorOf(edited)).toEqual({ error: 'VALIDATION_FAILED', message });
  });

  it('keeps a real date as typed: 29 February of a leap year, the genesis day, an offset', async () => {
    const customer = await verifiedCustomer(t);
    for (const [typed, stored] of [
      ['2024-02-29T12:00:00.000Z', '2024-02-29T12:00:00.000Z'],
      ['2009-01-03T00:00:00Z', '2009-01-03T00:00:00.000Z'],
      ['2025-08-01T10:30:00+10:00', '2025-08-01T00:30:00.000Z'],
    ]) {
      const res = await create(adminA, deposit(customer.userId, { transactionDate: typed }));
      expect([typed, res.statusCode, res.json().transaction?.date]).toEqual([typed, 200, stored]);
    }
  });

  it('refuses amounts a wallet cannot hold, before anything is written', async () => {
    const customer = await verifiedCustomer(t);
    const cases: Array<[Body, string]> = [
      [
        { assetId: 'USDT-ERC20', cryptoAmount: '99999999999999999999', usdAmount: '100.00' },
        ADMIN_TX_MSG.cryptoTooLarge,
      ],
      [{ cryptoAmount: '1000000000000000' }, ADMIN_TX_MSG.cryptoTooLarge],
      [{ usdAmount: '1234567890123456.00' }, ADMIN_TX_MSG.usdTooLarge],
      [{ audAmount: '99999999999999999999' }, ADMIN_TX_MSG.audTooLarge],
    ];
    for (const [over, message] of cases) {
      const res = await withoutChange(t, () => create(adminA, deposit(customer.userId, over)));
      expect([over, res.statusCode, errorOf(res).message]).toEqual([over, 400, message]);
    }
    const tx = (await create(adminA, deposit(customer.userId))).json().transaction;
    const bigger = await withoutChange(t, () =>
      edit(adminB, tx.id, editBody(tx, { cryptoAmount: '99999999999999999999' })),
    );
    expect(errorOf(bigger).message).toBe(ADMIN_TX_MSG.cryptoTooLarge);

    // The largest amount staff may type still leaves room for later credits.
    const most = await create(
      adminA,
      deposit(customer.userId, {
        assetId: 'USDT-ERC20',
        cryptoAmount: '999999999999999.999999',
        usdAmount: '999999999999999.99',
      }),
    );
    expect(most.statusCode).toBe(200);
    await fund(t, customer.userId, 'USDT-ERC20', '12345');
    expect(await wallet(customer.userId, 'USDT-ERC20')).toEqual({
      balance: '1000000000012344.999999',
      held: '0',
    });
  });
});

describe('the list', () => {
  it('pages newest first, filters, and searches by name, e-mail, asset and id', async () => {
    const customer = await verifiedCustomer(t);
    await t.services.pool.query(
      "UPDATE user_profiles SET full_name = 'Zebulon Quartermaine', username = 'zq_trader' WHERE id = $1",
      [customer.userId],
    );
    // Newer than any other row of this file (dates may be up to a day ahead of now).
    const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create(
        adminA,
        deposit(customer.userId, {
          assetId: i === 2 ? 'USDC' : 'BTC',
          cryptoAmount: '1',
          transactionDate: hoursAhead(2 + 2 * i),
        }),
      );
      made.push(res.json().transaction.id);
    }
    const list = (q: string) =>
      call(t, { url: `/api/admin/transactions?${q}`, cookie: adminB.cookie }).then((r) => r.json());

    const first = await list('pageSize=2');
    expect(first.items.map((i: { id: string }) => i.id)).toEqual([made[2], made[1]]);
    expect(first.hasMore).toBe(true);
    const second = await list('pageSize=2&page=2');
    expect(second.items[0].id).toBe(made[0]);

    const byName = await list('q=quarterMAINE');
    expect(byName.items.map((i: { id: string }) => i.id)).toEqual([made[2], made[1], made[0]]);
    expect(byName.hasMore).toBe(false);
    expect((await list('q=zq_tr')).items).toHaveLength(3);
    expect((await list(`q=${encodeURIComponent(customer.email)}`)).items).toHaveLength(3);
    const usdc = await list('q=usdc');
    expect(usdc.items.map((i: { id: string }) => i.id)).toContain(made[2]);
    expect(usdc.items.every((i: { assetId: string }) => i.assetId === 'USDC')).toBe(true);
    const byId = await list(`q=${made[1]}`);
    expect(byId.items.map((i: { id: string }) => i.id)).toEqual([made[1]]);
    const byPrefix = await list(`q=${made[1]?.slice(0, 8)}`);
    expect(byPrefix.items.map((i: { id: string }) => i.id)).toContain(made[1]);

    const completedDeposits = await list('status=completed&type=deposit&currency=USD&pageSize=100');
    expect(
      completedDeposits.items.every(
        (i: { status: string; type: string }) => i.status === 'completed' && i.type === 'deposit',
      ),
    ).toBe(true);
    expect((await list('status=failed&q=quartermaine')).items).toEqual([]);
    expect((await list('q=100%25')).items).toEqual([]);

    // A search that matches two customers merges their rows newest first, page by page.
    const relative = await verifiedCustomer(t);
    await t.services.pool.query(
      "UPDATE user_profiles SET full_name = 'Ada Quartermaine' WHERE id = $1",
      [relative.userId],
    );
    const theirs = await create(
      adminA,
      deposit(relative.userId, { cryptoAmount: '1', transactionDate: hoursAhead(5) }),
    );
    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((i) => i.id);
    expect(ids(await list('q=quartermaine&pageSize=2'))).toEqual([
      made[2],
      theirs.json().transaction.id,
    ]);
    expect(ids(await list('q=quartermaine&pageSize=2&page=2'))).toEqual([made[1], made[0]]);
  });

  it('plans each kind of search once per connection, whatever is searched for', async () => {
    // PostgreSQL keeps a generic plan only where it costs no more than a plan made for the
    // values at hand; otherwise it plans every request afresh, which costs several times
    // what running the page does. One connection, so its kept plans can be read back.
    // Customers and rows enough for the planner's statistics to tell searches apart.
    await seedLoad(t.services.pool, { customers: 1_000, transactions: 10_000, heavy: 0 });
    const pool = createPool(t.databaseUrl, 1);
    try {
      const customer = await verifiedCustomer(t);
      const tx = await create(adminA, deposit(customer.userId));
      const id: string = tx.json().transaction.id;
      // The ids an id prefix covers, as the service reads a prefix typed into the search.
      const prefixRange = (uuid: string, digits: number) => {
        const hex = uuid.replace(/-/g, '').slice(0, digits);
        const shape = (d: string) =>
          `${d.slice(0, 8)}-${d.slice(8, 12)}-${d.slice(12, 16)}-${d.slice(16, 20)}-${d.slice(20)}`;
        return { low: shape(hex.padEnd(32, '0')), high: shape(hex.padEnd(32, 'f')) };
      };
      const none = { status: null, type: null, currency: null, assetIds: [], idRange: null };
      const shapes: Array<(i: number) => ListFilters> = [
        (i) => ({ ...none, userPattern: `%${['mei', 'quartermaine', 'zq', 'ada'][i % 4]}%` }),
        (i) => ({
          ...none,
          userPattern: `%${i % 2 ? 'btc' : 'usdt'}%`,
          assetIds: [i % 2 ? 'BTC' : 'USDT-ERC20'],
        }),
        (i) => ({
          ...none,
          userPattern: `%${id.slice(0, 4 + i)}%`,
          idRange: prefixRange(id, 4 + i),
        }),
        (i) => ({
          ...none,
          status: i % 2 ? 'failed' : 'completed',
          type: 'deposit',
          userPattern: '%q%',
        }),
      ];
      for (const shape of shapes) {
        for (let i = 0; i < 8; i++)
          await adminTransactionsRepository.listPage(pool, shape(i), 0, 26);
      }
      const { rows } = await pool.query<{ generic_plans: string; custom_plans: string }>(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'admin_tx_list_%'",
      );
      expect(rows).toHaveLength(shapes.length);
      for (const r of rows) expect(Number(r.generic_plans)).toBeGreaterThan(0);
    } finally {
      await pool.end();
    }
  });
});

describe("a customer's pending payout keeps what the customer confirmed", () => {
  it('refuses a new address, asset or amount with 409, changing nothing; another admin approves it as asked', async () => {
    const { customer, id } = await pendingEthWithdrawal();
    const tx = await opened(id);
    const redirects: Body[] = [
      { withdrawalAddress: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' },
      { assetId: 'USDT-ERC20', cryptoAmount: '1' },
      { cryptoAmount: '1.5' },
      { usdAmount: '1.00' },
    ];
    for (const over of redirects) {
      const res = await withoutChange(t, () => edit(adminA, id, editBody(tx, over)));
      expect([over, res.statusCode, errorOf(res)]).toEqual([
        over,
        409,
        { error: 'CONFLICT', message: ADMIN_TX_MSG.customerPayoutLocked },
      ]);
    }
    // Nobody became an editor, so any admin may approve it, even the one refused above.
    await approved(adminA, id);
    const done = await complete(adminA, id, ETH_HASH);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().transaction).toMatchObject({
      withdrawalAddress: GOOD_ADDRESS.ETH,
      amount: '1',
      assetId: 'ETH',
      editorIds: [],
    });
    expect(await wallet(customer.userId, 'ETH')).toEqual({ balance: '0.998', held: '0' });
  }, 60_000);
});
