import { ADMIN_TX_MSG, ASSETS, fromMinor, parseAmount, STAFF_MSG, toMinor } from '@coffer/shared';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  errorOf,
  mailsTo,
  type SignedInUser,
  type TestApp,
  tableText,
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
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * Two people for every ledger row staff add, edit or delete and every payout completed by
 * hand (decision 0036); completed deposits, buys and sells are final; staff's payouts obey
 * the customer's daily limit; a recent funder of a customer decides none of their payouts.
 */

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let adminA: SignedInUser;
let adminB: SignedInUser;
let adminC: SignedInUser;
let adminD: SignedInUser;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  adminA = await spareStepUps(t, await verifiedAdmin(t));
  adminB = await spareStepUps(t, await verifiedAdmin(t));
  adminC = await spareStepUps(t, await verifiedAdmin(t));
  adminD = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
beforeEach(async () => {
  await t.services.pool.query(
    'UPDATE sessions SET last_seen_at = now() WHERE user_id = ANY($1::uuid[])',
    [[adminA.userId, adminB.userId, adminC.userId, adminD.userId]],
  );
});
afterEach(async () => {
  await expectReconciled(t);
});

type Body = Record<string, unknown>;
const NOW = '2025-08-01T10:30:00.000Z';

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

const propose = (admin: SignedInUser, body: Body) =>
  call(t, {
    method: 'POST',
    url: '/api/admin/transactions',
    cookie: admin.cookie,
    body: { ...body, stepUp: stepUpFor(admin) },
  });

const proposeEdit = (admin: SignedInUser, id: string, body: Body) =>
  call(t, {
    method: 'PATCH',
    url: `/api/admin/transactions/${id}`,
    cookie: admin.cookie,
    body: { ...body, stepUp: stepUpFor(admin) },
  });

const proposeDelete = (admin: SignedInUser, id: string, reason = 'Entered twice, ticket 9') =>
  call(t, {
    method: 'DELETE',
    url: `/api/admin/transactions/${id}`,
    cookie: admin.cookie,
    body: { reason, stepUp: stepUpFor(admin) },
  });

const proposeCompletion = (admin: SignedInUser, id: string, reference: string) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/complete`,
    cookie: admin.cookie,
    body: { reference, stepUp: stepUpFor(admin) },
  });

const approveChange = (admin: SignedInUser, changeId: string) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/changes/${changeId}/approve`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });

const approvePayout = (admin: SignedInUser, id: string) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });

const getTransaction = async (admin: SignedInUser, id: string) =>
  (await call(t, { url: `/api/admin/transactions/${id}`, cookie: admin.cookie })).json()
    .transaction;

/** A proposal's 202, asserted: the pending change. */
function pendingOf(res: Awaited<ReturnType<typeof call>>) {
  expect(res.statusCode, res.body).toBe(202);
  const { pending } = res.json();
  expect(pending.status).toBe('pending');
  return pending as { id: string; kind: string; subject: { id: string } | null };
}

/** The id of the ledger row an approved change recorded. */
async function appliedRow(changeId: string): Promise<string> {
  const { rows } = await t.services.pool.query<{ id: string }>(
    "SELECT result->>'transactionId' AS id FROM staff_changes WHERE id = $1 AND status = 'approved'",
    [changeId],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error(`change ${changeId} did not apply`);
  return id;
}

/** Proposed by one, approved by another: the row recorded. */
async function recorded(proposer: SignedInUser, approver: SignedInUser, body: Body) {
  const pending = pendingOf(await propose(proposer, body));
  const ok = await approveChange(approver, pending.id);
  expect(ok.statusCode, ok.body).toBe(200);
  return appliedRow(pending.id);
}

/**
 * Two approvals of one change at once: exactly one applies, the other finds it decided.
 * Both approvers are allowed to decide it.
 */
async function racedApprovals(changeId: string, first: SignedInUser, second: SignedInUser) {
  const answers = await Promise.all([
    approveChange(first, changeId),
    approveChange(second, changeId),
  ]);
  expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  const lost = answers.find((a) => a.statusCode === 409);
  expect(lost && errorOf(lost)).toEqual({ error: 'CONFLICT', message: STAFF_MSG.changeDecided });
}

describe('adding a ledger row takes two people', () => {
  it('a credit proposed changes nothing; approved once (two approvers racing), it credits once', async () => {
    const customer = await verifiedCustomer(t);
    const rowsBefore = await transactionCount(t, customer.userId);
    const transactions = await tableText(t, 'transactions');
    const wallets = await tableText(t, 'user_wallets');
    const res = await propose(adminA, deposit(customer.userId));
    const pending = pendingOf(res);
    expect(res.json().pending).toMatchObject({
      kind: 'transaction.credit',
      proposedBy: { id: adminA.userId },
      subject: { id: customer.userId, email: customer.email },
      before: null,
      after: { type: 'deposit', amount: '1', assetId: 'BTC', status: 'completed' },
    });
    expect(res.json().pending.summary).toContain(customer.email);
    // The proposer alone moved nothing: no row, no balance.
    expect(await tableText(t, 'transactions')).toBe(transactions);
    expect(await tableText(t, 'user_wallets')).toBe(wallets);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '0', held: '0' });
    // The proposer never approves it.
    const own = await withoutChange(t, () => approveChange(adminA, pending.id));
    expect([own.statusCode, errorOf(own).message]).toEqual([403, STAFF_MSG.ownProposal]);
    const told = () =>
      mailsTo(t, customer.email).filter((m) => m.includes('Coffer staff recorded'));
    expect(told()).toEqual([]);

    await racedApprovals(pending.id, adminB, adminC);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    // The customer is told once, naming the row and the reason.
    expect(told()).toHaveLength(1);
    expect(told()[0]).toContain('a completed deposit of 1 BTC');
    expect(await transactionCount(t, customer.userId)).toBe(rowsBefore + 1);
    const row = await getTransaction(adminB, await appliedRow(pending.id));
    // Recorded as the proposer's: they may not complete anything they recorded.
    expect(row).toMatchObject({ type: 'deposit', status: 'completed', createdBy: adminA.userId });
  });

  it('a withdrawal staff record is proposed (transaction.create), held only once approved', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const body = deposit(customer.userId, {
      type: 'withdrawal',
      cryptoAmount: '0.3',
      usdAmount: '19500.00',
      status: 'pending',
      withdrawalAddress: GOOD_ADDRESS.BTC,
    });
    const pending = pendingOf(await propose(adminA, body));
    expect(pending.kind).toBe('transaction.create');
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    await racedApprovals(pending.id, adminB, adminC);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.3' });
  });

  it('refuses at proposal what the ledger would refuse (funds), changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '0.1');
    const res = await withoutChange(t, () =>
      propose(adminA, deposit(customer.userId, { type: 'sell', cryptoAmount: '0.5' })),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toBe('INSUFFICIENT_BALANCE');
  });

  it('checks again at approval: a sell that no longer fits is refused, nothing applied', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const sell = (amount: string) =>
      propose(adminA, deposit(customer.userId, { type: 'sell', cryptoAmount: amount }));
    const first = pendingOf(await sell('0.7'));
    const second = pendingOf(await sell('0.7'));
    expect((await approveChange(adminB, first.id)).statusCode).toBe(200);
    const late = await withoutChange(t, () => approveChange(adminB, second.id));
    expect(late.statusCode).toBe(400);
    expect(errorOf(late).error).toBe('INSUFFICIENT_BALANCE');
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '0.3', held: '0' });
  });
});

describe('editing and deleting take two people; completed deposits, buys and sells are final', () => {
  it('a pending deposit completed by an approved edit credits once; the proposer alone changes nothing', async () => {
    const customer = await verifiedCustomer(t);
    const id = await recorded(adminA, adminB, deposit(customer.userId, { status: 'pending' }));
    const tx = await getTransaction(adminA, id);
    const body = {
      assetId: 'BTC',
      type: 'deposit',
      cryptoAmount: '1',
      usdAmount: '65000.00',
      audAmount: tx.audAmount,
      status: 'completed',
      transactionDate: tx.date,
      withdrawalAddress: '',
      transactionHash: '',
      reason: 'Funds arrived, ticket 44',
    };
    const before = await tableText(t, 'transactions');
    const res = await proposeEdit(adminC, id, body);
    const pending = pendingOf(res);
    expect(res.json().pending).toMatchObject({
      kind: 'transaction.update',
      before: { status: 'pending' },
      after: { status: 'completed' },
    });
    expect(await tableText(t, 'transactions')).toBe(before);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '0', held: '0' });
    await racedApprovals(pending.id, adminB, adminD);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    expect(await getTransaction(adminA, id)).toMatchObject({
      status: 'completed',
      editorIds: [adminC.userId],
    });
  });

  it('a deletion is proposed with its reason and applies once', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const id = await recorded(
      adminA,
      adminB,
      deposit(customer.userId, { type: 'sell', cryptoAmount: '0.4', status: 'pending' }),
    );
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.4' });
    const transactions = await tableText(t, 'transactions');
    const res = await proposeDelete(adminC, id, 'Customer changed their mind, ticket 12');
    const pending = pendingOf(res);
    expect(res.json().pending.summary).toContain('Customer changed their mind, ticket 12');
    expect(await tableText(t, 'transactions')).toBe(transactions);
    await racedApprovals(pending.id, adminA, adminD);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    const told = mailsTo(t, customer.email).filter((m) => m.includes('Coffer staff removed'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('Customer changed their mind, ticket 12');
    const gone = await call(t, { url: `/api/admin/transactions/${id}`, cookie: adminA.cookie });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses to edit or delete a completed deposit, buy or sell (409), at proposal and at approval', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '2');
    for (const type of ['deposit', 'buy', 'sell']) {
      const id = await recorded(
        adminA,
        adminB,
        deposit(customer.userId, { type, cryptoAmount: '0.5' }),
      );
      const tx = await getTransaction(adminA, id);
      const edit = await withoutChange(t, () =>
        proposeEdit(adminC, id, {
          assetId: 'BTC',
          type,
          cryptoAmount: '5',
          usdAmount: tx.usdAmount,
          status: 'completed',
          transactionDate: tx.date,
          reason: 'Bigger',
        }),
      );
      expect([edit.statusCode, errorOf(edit)]).toEqual([
        409,
        { error: 'CONFLICT', message: ADMIN_TX_MSG.completedFinal },
      ]);
      const del = await withoutChange(t, () => proposeDelete(adminC, id));
      expect([del.statusCode, errorOf(del).message]).toEqual([409, ADMIN_TX_MSG.completedFinal]);
    }
    // A pending deposit may be edited, but not once it completed meanwhile.
    const id = await recorded(adminA, adminB, deposit(customer.userId, { status: 'pending' }));
    const tx = await getTransaction(adminA, id);
    const edit = (status: string, amount: string) =>
      proposeEdit(adminC, id, {
        assetId: 'BTC',
        type: 'deposit',
        cryptoAmount: amount,
        usdAmount: tx.usdAmount,
        status,
        transactionDate: tx.date,
        reason: 'Arrived',
      });
    const completing = pendingOf(await edit('completed', '1'));
    const resizing = pendingOf(await edit('pending', '3'));
    // The second edit replaced nothing: different proposals of one row wait side by side
    // only until a newer one replaces them; this one is the newest.
    expect(resizing.id).not.toBe(completing.id);
    const balances = await walletOf(t, customer.userId, 'BTC');
    const late = await withoutChange(t, () => approveChange(adminD, completing.id));
    expect(late.statusCode).toBe(409);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual(balances);
  });

  it('a correction is a two-person adjustment naming the row it corrects, same customer and asset', async () => {
    const customer = await verifiedCustomer(t);
    const other = await verifiedCustomer(t);
    const id = await recorded(adminA, adminB, deposit(customer.userId));
    const correction = {
      userId: customer.userId,
      assetId: 'BTC',
      type: 'adjustment',
      direction: 'debit',
      cryptoAmount: '0.1',
      usdAmount: '6500.00',
      transactionDate: NOW,
      correctsTransactionId: id,
      reason: 'Deposit was 0.9 BTC, not 1: bank statement of 1 August',
    };
    // It must name the row, of the same customer and the same asset.
    for (const over of [
      { correctsTransactionId: undefined },
      { correctsTransactionId: id, userId: other.userId },
      { correctsTransactionId: id, assetId: 'ETH' },
      { correctsTransactionId: '00000000-0000-4000-8000-000000000000' },
    ]) {
      const res = await withoutChange(t, () => propose(adminC, { ...correction, ...over }));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
    }
    // And only an adjustment names one.
    const named = await withoutChange(t, () =>
      propose(adminC, deposit(customer.userId, { correctsTransactionId: id })),
    );
    expect([named.statusCode, errorOf(named).message]).toEqual([
      400,
      ADMIN_TX_MSG.correctionOnlyAdjustment,
    ]);

    const pending = pendingOf(await propose(adminC, correction));
    // A debit adjustment raises no balance: it funds nobody.
    expect(pending.kind).toBe('transaction.create');
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    await racedApprovals(pending.id, adminB, adminD);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '0.9', held: '0' });
    const adjustment = await getTransaction(adminA, await appliedRow(pending.id));
    expect(adjustment).toMatchObject({
      type: 'adjustment',
      direction: 'debit',
      status: 'completed',
      amount: '0.1',
      correctsTransactionId: id,
      reason: correction.reason,
      createdBy: adminC.userId,
    });
    // A crediting correction funds the customer.
    const credit = pendingOf(
      await propose(adminC, { ...correction, direction: 'credit', cryptoAmount: '0.05' }),
    );
    expect(credit.kind).toBe('transaction.credit');
  });
});

describe("staff's payouts obey the customer's daily limit", () => {
  it('refuses an $84,000 withdrawal against a $10,000 limit at proposal, and a second one at approval', async () => {
    await setSetting(t, 'max_daily_withdrawal', '10000');
    try {
      const customer = await verifiedCustomer(t);
      await fund(t, customer.userId, 'BTC', '3');
      const withdrawal = (over: Body) =>
        propose(
          adminA,
          deposit(customer.userId, {
            type: 'withdrawal',
            status: 'pending',
            withdrawalAddress: GOOD_ADDRESS.BTC,
            ...over,
          }),
        );
      const big = await withoutChange(t, () =>
        withdrawal({ cryptoAmount: '1.3', usdAmount: '84000.00' }),
      );
      expect([big.statusCode, errorOf(big)]).toEqual([
        400,
        {
          error: 'LIMIT_EXCEEDED',
          message:
            "This payout would exceed the customer's daily limit of $10,000.00. They can withdraw $10,000.00 more today.",
        },
      ]);
      // A figure typed low does not slip under it: the amount is valued at today's price.
      const low = await withoutChange(t, () =>
        withdrawal({ cryptoAmount: '1.3', usdAmount: '1.00' }),
      );
      expect(errorOf(low).error).toBe('LIMIT_EXCEEDED');
      // A bank transfer staff record counts too.
      const bank = await withoutChange(t, () =>
        propose(adminA, {
          userId: customer.userId,
          type: 'bank_transfer',
          usdAmount: '84000.00',
          status: 'pending',
          transactionDate: NOW,
          bank: { accountName: 'Jane Citizen', accountNumber: '12345678', bsbNumber: '062000' },
          reason: 'Asked by phone',
        }),
      );
      expect(errorOf(bank).error).toBe('LIMIT_EXCEEDED');

      // Two that each fit alone: the second is refused when it is approved. The first is
      // typed three days back, but a payout staff record is dated when recorded: the limit
      // counts the payouts dated in the last 24 hours, so a backdated one would count
      // against none of the later ones.
      const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
      const small = { cryptoAmount: '0.0001', usdAmount: '6000.00' };
      const first = pendingOf(await withdrawal({ ...small, transactionDate: threeDaysAgo }));
      const second = pendingOf(
        await withdrawal({ ...small, transactionDate: new Date().toISOString() }),
      );
      expect((await approveChange(adminB, first.id)).statusCode).toBe(200);
      const { rows } = await t.services.pool.query<{ age: number }>(
        `SELECT extract(epoch FROM now() - transaction_date)::float8 AS age FROM transactions
          WHERE user_id = $1 AND transaction_type = 'withdrawal'`,
        [customer.userId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.age).toBeLessThan(60);
      const late = await withoutChange(t, () => approveChange(adminB, second.id));
      expect([late.statusCode, errorOf(late).error]).toEqual([400, 'LIMIT_EXCEEDED']);
    } finally {
      await setSetting(t, 'max_daily_withdrawal', '1000000000');
    }
  });
});

describe('completing a payout by hand takes two people', () => {
  it('a proposal keeps the hold; approved once (racing), the hold becomes a debit once', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'ETH', '2');
    const asked = await requestWithdrawal(t, customer, {
      assetId: 'ETH',
      amount: '1',
      address: GOOD_ADDRESS.ETH,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const id = asked.json().transaction.id;
    const held = await walletOf(t, customer.userId, 'ETH');
    const fee = parseAmount(ASSETS.ETH.networkFee, ASSETS.ETH.decimals);
    const left = fromMinor('ETH', toMinor('ETH', '1') - fee);
    expect(held).toEqual({ balance: '2', held: fromMinor('ETH', toMinor('ETH', '1') + fee) });
    expect((await approvePayout(adminA, id)).statusCode).toBe(200);

    const hash = `0x${'cd'.repeat(32)}`;
    const res = await proposeCompletion(adminB, id, hash);
    const pending = pendingOf(res);
    expect(res.json().pending).toMatchObject({
      kind: 'payout.complete',
      subject: { id: customer.userId },
      after: { status: 'completed', transactionHash: hash },
    });
    // Nothing moved: the hold stays until the approval.
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual(held);
    expect((await getTransaction(adminA, id)).status).toBe('pending');

    await racedApprovals(pending.id, adminC, adminD);
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual({ balance: left, held: '0' });
    expect(await getTransaction(adminA, id)).toMatchObject({
      status: 'completed',
      transactionHash: hash,
      processedBy: adminB.userId,
      payoutState: 'unverified',
    });
    await t.services.outbox.deliver({ wait: 'all' });
    expect(mailsTo(t, customer.email).at(-1)).toContain('Your withdrawal has been sent');
  });

  it('checks the reference at proposal, changing nothing', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'ETH', '2');
    const id = (
      await requestWithdrawal(t, customer, {
        assetId: 'ETH',
        amount: '1',
        address: GOOD_ADDRESS.ETH,
      })
    ).json().transaction.id;
    const early = await withoutChange(t, () => proposeCompletion(adminB, id, 'ab'.repeat(32)));
    expect(early.statusCode).toBe(409);
    expect((await approvePayout(adminA, id)).statusCode).toBe(200);
    const noHash = await withoutChange(t, () => proposeCompletion(adminB, id, ' '));
    expect(errorOf(noHash)).toEqual({
      error: 'VALIDATION_FAILED',
      message: ADMIN_TX_MSG.hashRequired,
    });
    const bad = await withoutChange(t, () => proposeCompletion(adminB, id, 'hello'));
    expect(bad.statusCode).toBe(400);
  });

  it('a bank transfer staff recorded: its creator neither proposes nor approves its completion', async () => {
    const customer = await verifiedCustomer(t);
    const id = await recorded(adminA, adminB, {
      userId: customer.userId,
      type: 'bank_transfer',
      usdAmount: '100.00',
      status: 'pending',
      transactionDate: NOW,
      bank: { accountName: 'Jane Citizen', accountNumber: '12345678', bsbNumber: '062000' },
      reason: 'Customer asked by phone, ticket 7',
    });
    const own = await withoutChange(t, () => proposeCompletion(adminA, id, 'REF-000123'));
    expect([own.statusCode, errorOf(own).message]).toEqual([403, ADMIN_TX_MSG.fourEyes]);
    const res = await proposeCompletion(adminC, id, 'REF-000123');
    const pending = pendingOf(res);
    // The account is masked in what every staff member reads.
    expect(res.json().pending.after.accountNumber).toMatch(/^••••5678 #[0-9a-f]{8}$/);
    expect(JSON.stringify(res.json().pending)).not.toContain('12345678');
    const creator = await withoutChange(t, () => approveChange(adminA, pending.id));
    expect([creator.statusCode, errorOf(creator).message]).toEqual([403, ADMIN_TX_MSG.fourEyes]);
    await racedApprovals(pending.id, adminB, adminD);
    expect(await getTransaction(adminD, id)).toMatchObject({
      status: 'completed',
      transactionHash: 'REF-000123',
      processedBy: adminC.userId,
    });
  });
});

describe('nobody mints money and pays it out with one other person', () => {
  it('A proposes a credit and B approves it: neither decides the payout; C does', async () => {
    const customer = await verifiedCustomer(t);
    await recorded(adminA, adminB, deposit(customer.userId, { assetId: 'ETH', cryptoAmount: '2' }));
    const asked = await requestWithdrawal(t, customer, {
      assetId: 'ETH',
      amount: '1',
      address: GOOD_ADDRESS.ETH,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const id = asked.json().transaction.id;

    for (const funder of [adminA, adminB]) {
      const res = await withoutChange(t, () => approvePayout(funder, id));
      expect([res.statusCode, errorOf(res)]).toEqual([
        403,
        { error: 'FORBIDDEN', message: STAFF_MSG.fundedCustomer },
      ]);
    }
    expect((await approvePayout(adminC, id)).statusCode).toBe(200);

    // Nor does either of them complete it by hand, as proposer or as approver.
    const hash = `0x${'ef'.repeat(32)}`;
    const byA = await withoutChange(t, () => proposeCompletion(adminA, id, hash));
    expect([byA.statusCode, errorOf(byA).message]).toEqual([403, STAFF_MSG.fundedCustomer]);
    const pending = pendingOf(await proposeCompletion(adminD, id, hash));
    const byB = await withoutChange(t, () => approveChange(adminB, pending.id));
    expect([byB.statusCode, errorOf(byB).message]).toEqual([403, STAFF_MSG.fundedCustomer]);
    expect((await approveChange(adminC, pending.id)).statusCode).toBe(200);
    expect((await getTransaction(adminC, id)).status).toBe('completed');
  });

  it('a completed deposit recorded by A and B counts as funding too', async () => {
    const customer = await verifiedCustomer(t);
    await recorded(adminC, adminD, deposit(customer.userId, { assetId: 'ETH', cryptoAmount: '2' }));
    const id = (
      await requestWithdrawal(t, customer, {
        assetId: 'ETH',
        amount: '1',
        address: GOOD_ADDRESS.ETH,
      })
    ).json().transaction.id;
    const byC = await withoutChange(t, () => approvePayout(adminC, id));
    expect(errorOf(byC).message).toBe(STAFF_MSG.fundedCustomer);
    expect((await approvePayout(adminA, id)).statusCode).toBe(200);
  });

  it('nobody approves a payout of their own customer account', async () => {
    await fund(t, adminD.userId, 'ETH', '2');
    const asked = await requestWithdrawal(t, adminD, {
      assetId: 'ETH',
      amount: '1',
      address: GOOD_ADDRESS.ETH,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const id = asked.json().transaction.id;
    const own = await withoutChange(t, () => approvePayout(adminD, id));
    expect([own.statusCode, errorOf(own).message]).toEqual([403, ADMIN_TX_MSG.ownPayout]);
    expect((await approvePayout(adminA, id)).statusCode).toBe(200);
    const hand = await withoutChange(t, () =>
      proposeCompletion(adminD, id, `0x${'12'.repeat(32)}`),
    );
    expect([hand.statusCode, errorOf(hand).message]).toEqual([403, ADMIN_TX_MSG.ownPayout]);
  });
});
