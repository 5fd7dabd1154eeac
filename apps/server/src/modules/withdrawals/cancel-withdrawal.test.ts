import { HISTORY_MSG } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
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
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * POST /api/withdrawals/:id/cancel: a customer takes back their own withdrawal or bank
 * payout while nobody has taken it, and is refused, changing nothing, once someone has.
 */
let t: TestApp;
let staff: SignedInUser;
let approver: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  staff = await spareStepUps(t, await verifiedAdmin(t));
  approver = await spareStepUps(t, await verifiedAdmin(t));
});
afterAll(async () => {
  await t.close();
});
// A refusal inside withoutChange compares every table: the staff's sessions must not slide
// (a first use after a minute writes last_seen_at) during one.
beforeEach(async () => {
  await t.services.pool.query(
    'UPDATE sessions SET last_seen_at = now() WHERE user_id = ANY($1::uuid[])',
    [[staff.userId, approver.userId]],
  );
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

const BANK = {
  accountName: 'Ann Smith',
  accountNumber: '12345678',
  bsbNumber: '062000',
  amountAud: '100',
  assetId: 'BTC',
};

function cancel(user: SignedInUser, id: string, headers: Record<string, string> = {}) {
  return call(t, {
    method: 'POST',
    url: `/api/withdrawals/${id}/cancel`,
    cookie: user.cookie,
    headers,
  });
}

/** A staff action on a payout, confirmed with the admin's own fresh second factor. */
function staffAction(
  admin: SignedInUser,
  id: string,
  action: 'approve' | 'reject' | 'complete',
  body: Record<string, unknown> = {},
) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/${action}`,
    cookie: admin.cookie,
    body: { ...body, stepUp: stepUpFor(admin) },
  });
}

/**
 * A staff proposal (an edit, a hand completion: two people, decision 0036) approved by the
 * other staff member: the approval's answer.
 */
async function approvedByOther(proposal: Awaited<ReturnType<typeof call>>) {
  expect(proposal.statusCode, proposal.body).toBe(202);
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${proposal.json().pending.id}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
}

/** A customer with 1 BTC who asked to withdraw 0.5 BTC (0.5001 held with the fee). */
async function pendingWithdrawal() {
  const customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'BTC', '1');
  const res = await requestWithdrawal(t, customer, {
    assetId: 'BTC',
    amount: '0.5',
    address: GOOD_ADDRESS.BTC,
  });
  expect(res.statusCode).toBe(200);
  return { customer, id: res.json().transaction.id as string };
}

/** A customer with 1 BTC who asked for a 100 AUD bank payout paid from it. */
async function pendingBankPayout() {
  const customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'BTC', '1');
  const res = await requestBankTransfer(t, customer, BANK);
  expect(res.statusCode).toBe(200);
  return { customer, id: res.json().transaction.id as string };
}

/** The customer's last mail as they read it: quoted-printable soft breaks joined, =3D undone. */
const lastMail = (email: string) =>
  (mailsTo(t, email).at(-1) ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');

async function auditOf(id: string) {
  const { rows } = await t.services.pool.query<{
    action: string;
    actor_id: string;
    target_user_id: string;
    reason: string | null;
    ip: string | null;
  }>(
    'SELECT action, actor_id, target_user_id, reason, ip FROM audit_log WHERE target_id = $1 ORDER BY id',
    [id],
  );
  return rows;
}

/** The customer's history row of a payout, as the History screen gets it. */
async function historyRow(customer: SignedInUser, id: string) {
  const res = await call(t, { url: '/api/transactions', cookie: customer.cookie });
  return res.json().items.find((i: { id: string }) => i.id === id);
}

describe('cancelling a pending payout', () => {
  it('a withdrawal: failed as cancelled, amount and fee back, a mail and an audit row', async () => {
    const { customer, id } = await pendingWithdrawal();
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.5001' });
    expect(await historyRow(customer, id)).toMatchObject({ status: 'pending', cancellable: true });

    const res = await cancel(customer, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().transaction).toMatchObject({
      id,
      type: 'withdrawal',
      status: 'failed',
      amount: '0.5',
      fee: '0.0001',
      reason: 'Cancelled by the customer.',
      cancelled: true,
    });
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });

    const row = await historyRow(customer, id);
    expect(row).toMatchObject({ status: 'failed', cancelled: true });
    expect(row.cancellable).toBeUndefined();

    const mail = lastMail(customer.email);
    expect(mail).toContain('Subject: Your withdrawal was cancelled');
    expect(mail).toContain(
      `Cancelled: you cancelled your withdrawal request of 0.5 BTC to ${GOOD_ADDRESS.BTC}. Nothing was sent.`,
    );
    expect(mail).toContain(
      'the 0.5001 BTC held for it (amount and network fee) is available again',
    );
    expect(await auditOf(id)).toEqual([
      {
        action: 'withdrawal.cancel',
        actor_id: customer.userId,
        target_user_id: customer.userId,
        reason: 'Cancelled by the customer.',
        ip: '127.0.0.1',
      },
    ]);
    // The export tells it too.
    const csv = await call(t, { url: '/api/transactions/export.csv', cookie: customer.cookie });
    expect(csv.body).toMatch(
      new RegExp(
        `,withdrawal,BTC,0\\.5,0\\.0001,[^,]*,,,,failed,,${GOOD_ADDRESS.BTC},Cancelled by the customer\\.\\r\\n`,
      ),
    );
  });

  it('a bank payout: failed as cancelled, the BTC held for it back, a mail naming the AUD', async () => {
    const { customer, id } = await pendingBankPayout();
    const held = await walletOf(t, customer.userId, 'BTC');
    expect(held?.held).not.toBe('0');
    const row = await historyRow(customer, id);
    // History names where it goes, so the confirmation can.
    expect(row).toMatchObject({
      cancellable: true,
      audAmount: '100.00',
      bankAccount: { accountName: 'Ann Smith', bsb: '062000', accountEnding: '5678' },
    });

    const res = await cancel(customer, id);
    expect(res.statusCode).toBe(200);
    expect(res.json().transaction).toMatchObject({
      type: 'bank_transfer',
      status: 'failed',
      cancelled: true,
    });
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    const mail = lastMail(customer.email);
    expect(mail).toContain('Subject: Your bank transfer was cancelled');
    expect(mail).toContain(
      'Cancelled: you cancelled your bank transfer request of 100.00 AUD. Nothing was paid.',
    );
    expect(mail).toContain(
      'Nothing left your wallet: the amount held for it is available again, 0.00156886 BTC (1 AUD = 0.66 USD, 1 BTC = 42069 USD).',
    );
    expect((await auditOf(id)).map((a) => [a.action, a.actor_id])).toEqual([
      ['withdrawal.cancel', customer.userId],
    ]);
    // Staff can no longer pay or reject it.
    const paid = await withoutChange(t, () =>
      staffAction(staff, id, 'complete', { reference: 'WBC 2025/0001' }),
    );
    expect(paid.statusCode).toBe(409);
  });

  it('with an Idempotency-Key, a repeat gets the first answer and releases nothing twice', async () => {
    const { customer, id } = await pendingWithdrawal();
    const key = { 'idempotency-key': 'cancel-once' };
    const first = await cancel(customer, id, key);
    expect(first.statusCode).toBe(200);
    const again = await withoutChange(t, () => cancel(customer, id, key));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    expect(await auditOf(id)).toHaveLength(1);
    // The same key for the customer's next cancellation is refused: it names another request.
    const second = await requestWithdrawal(t, customer, {
      assetId: 'BTC',
      amount: '0.2',
      address: GOOD_ADDRESS.BTC,
    });
    const secondId: string = second.json().transaction.id;
    const reused = await withoutChange(t, () => cancel(customer, secondId, key));
    expect(reused.statusCode).toBe(409);
    expect(errorOf(reused)).toEqual({
      error: 'IDEMPOTENCY_CONFLICT',
      message: 'This Idempotency-Key was already used for a different request.',
    });
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.2001' });
  });
});

describe('refused cancellations change nothing', () => {
  it('another customer’s payout, a deposit, an unknown or malformed id: 404', async () => {
    const { id } = await pendingWithdrawal();
    const stranger = await verifiedCustomer(t);
    await fund(t, stranger.userId, 'BTC', '1');
    const { rows } = await t.services.pool.query<{ id: string }>(
      "SELECT id FROM transactions WHERE user_id = $1 AND transaction_type = 'deposit'",
      [stranger.userId],
    );
    for (const target of [id, rows[0]?.id ?? '', crypto.randomUUID(), 'not-a-uuid', '1%27']) {
      const res = await withoutChange(t, () => cancel(stranger, target));
      expect(res.statusCode, target).toBe(404);
      expect(errorOf(res)).toEqual({ error: 'NOT_FOUND', message: 'Withdrawal not found.' });
    }
  });

  it('approved for a batch, edited by staff, or recorded by staff: 409, saying why', async () => {
    const approved = await pendingWithdrawal();
    expect((await staffAction(approver, approved.id, 'approve')).statusCode).toBe(200);
    expect((await historyRow(approved.customer, approved.id)).cancellable).toBeUndefined();
    const taken = await withoutChange(t, () => cancel(approved.customer, approved.id));
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toEqual({ error: 'CONFLICT', message: HISTORY_MSG.cancelTaken });

    const edited = await pendingWithdrawal();
    const tx = (
      await call(t, { url: `/api/admin/transactions/${edited.id}`, cookie: staff.cookie })
    ).json().transaction;
    const proposed = await call(t, {
      method: 'PATCH',
      url: `/api/admin/transactions/${edited.id}`,
      cookie: staff.cookie,
      body: {
        assetId: tx.assetId,
        type: tx.type,
        cryptoAmount: tx.amount,
        usdAmount: tx.usdAmount,
        audAmount: tx.audAmount ?? '',
        status: tx.status,
        transactionDate: '2025-08-01T10:30:00.000Z',
        withdrawalAddress: tx.withdrawalAddress ?? '',
        transactionHash: '',
        reason: 'Checked with the customer, ticket 7',
        stepUp: stepUpFor(staff),
      },
    });
    const redated = await approvedByOther(proposed);
    expect(redated.statusCode, redated.body).toBe(200);
    expect((await historyRow(edited.customer, edited.id)).cancellable).toBeUndefined();
    const editedRes = await withoutChange(t, () => cancel(edited.customer, edited.id));
    expect(errorOf(editedRes)).toEqual({ error: 'CONFLICT', message: HISTORY_MSG.cancelTaken });

    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const recorded = await withTransaction(t.services.pool, (client) =>
      t.services.ledger.post(client, {
        userId: customer.userId,
        assetId: 'BTC',
        type: 'withdrawal',
        direction: 'debit',
        amount: 10_000_000n,
        status: 'pending',
        withdrawalAddress: GOOD_ADDRESS.BTC,
        createdBy: staff.userId,
      }),
    );
    expect((await historyRow(customer, recorded.id)).cancellable).toBeUndefined();
    const byStaff = await withoutChange(t, () => cancel(customer, recorded.id));
    expect(byStaff.statusCode).toBe(409);
    expect(errorOf(byStaff)).toEqual({
      error: 'CONFLICT',
      message: HISTORY_MSG.cancelStaffRecorded,
    });
  }, 60_000);

  it('completed, rejected or already cancelled: 409, saying which', async () => {
    const paid = await pendingBankPayout();
    const paying = await staffAction(staff, paid.id, 'complete', { reference: 'WBC 2025/0002' });
    expect((await approvedByOther(paying)).statusCode).toBe(200);
    const rejected = await pendingWithdrawal();
    expect(
      (await staffAction(staff, rejected.id, 'reject', { reason: 'Address under review' }))
        .statusCode,
    ).toBe(200);
    const cancelled = await pendingWithdrawal();
    expect((await cancel(cancelled.customer, cancelled.id)).statusCode).toBe(200);

    for (const [case_, message] of [
      [paid, HISTORY_MSG.cancelCompleted],
      [rejected, HISTORY_MSG.cancelRejected],
      [cancelled, HISTORY_MSG.cancelCancelled],
    ] as const) {
      const res = await withoutChange(t, () => cancel(case_.customer, case_.id));
      expect(res.statusCode).toBe(409);
      expect(errorOf(res)).toEqual({ error: 'CONFLICT', message });
    }
    // A staff rejection still reads as one, not as a cancellation.
    const row = await historyRow(rejected.customer, rejected.id);
    expect(row.cancelled).toBeUndefined();
    expect(row.reason).toBe('Address under review');
  }, 60_000);

  it('from another site or signed out: refused before anything is read', async () => {
    const { customer, id } = await pendingWithdrawal();
    const foreign = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/withdrawals/${id}/cancel`,
        cookie: customer.cookie,
        origin: 'https://evil.example',
      }),
    );
    expect(foreign.statusCode).toBe(403);
    expect(errorOf(foreign).error).toBe('FOREIGN_ORIGIN');
    const signedOut = await withoutChange(t, () =>
      call(t, { method: 'POST', url: `/api/withdrawals/${id}/cancel` }),
    );
    expect(signedOut.statusCode).toBe(401);
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({ balance: '1', held: '0.5001' });
  });
});
