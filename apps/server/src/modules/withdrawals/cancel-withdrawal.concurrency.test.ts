import { fromMinor, HISTORY_MSG, toMinor } from '@coffer/shared';
import {
  call,
  createTestApp,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from '@server-test/helpers';
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestBankTransfer,
  requestWithdrawal,
  seedBackupCodes,
  setSetting,
  spareStepUps,
  stepUpFor,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CANCELLED_FOR_STAFF } from './cancel-rules';

/**
 * A customer's cancellation fired at the same moment as staff completing, rejecting or
 * approving the same payout, many times over: each race ends in exactly one outcome, its
 * own mail and audit row, and balances that are what that outcome leaves. A hand completion
 * takes two people (decision 0036): it is proposed before the race, and the cancellation
 * races the second staff member's approval.
 */
let t: TestApp;
let staff: SignedInUser;
let approver: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  staff = await spareStepUps(t, await verifiedAdmin(t), 300);
  approver = await spareStepUps(t, await verifiedAdmin(t), 300);
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await expectReconciled(t);
});

const ROUNDS = 12;

type StaffMove = 'approve' | 'reject' | 'complete';

/** What the row, its payout and its audit log say once both requests are answered. */
async function outcomeOf(id: string) {
  const { rows } = await t.services.pool.query<{
    status: string;
    reason: string | null;
    processed_by: string | null;
    approved: boolean;
    actions: string[];
  }>(
    `SELECT t.status, t.reason, t.processed_by,
            EXISTS (SELECT 1 FROM payouts p WHERE p.transaction_id = t.id) AS approved,
            -- The row's own actions, and a two-person change's approval that names the row.
            ARRAY(SELECT action FROM audit_log a
                   WHERE a.target_id = t.id::text
                      OR (a.target_type = 'staff_change' AND a.action <> 'change.propose'
                          AND a.after ->> 'transactionId' = t.id::text)
                   ORDER BY a.id) AS actions
       FROM transactions t WHERE t.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

/**
 * Races a cancellation against `move` on a fresh payout of one customer, ROUNDS times, and
 * checks each race's single outcome; the customer's wallet must then be what the outcomes
 * add up to.
 */
async function race(kind: 'withdrawal' | 'bank', move: StaffMove) {
  const customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'BTC', '10');
  await seedBackupCodes(t, customer.userId, ROUNDS + 5);
  let balance = toMinor('BTC', '10');
  let held = 0n;
  const wins = { customer: 0, staff: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const request =
      kind === 'withdrawal'
        ? await requestWithdrawal(t, customer, {
            assetId: 'BTC',
            amount: '0.1',
            address: GOOD_ADDRESS.BTC,
          })
        : await requestBankTransfer(t, customer, {
            accountName: 'Ann Smith',
            accountNumber: '12345678',
            bsbNumber: '062000',
            amountAud: '100',
            assetId: 'BTC',
          });
    expect(request.statusCode).toBe(200);
    const tx = request.json().transaction;
    const hold = toMinor('BTC', tx.amount) + toMinor('BTC', tx.fee);
    const mailsBefore = mailsTo(t, customer.email).length;

    const body =
      move === 'reject'
        ? { reason: 'Refused in review' }
        : move === 'complete'
          ? { reference: `WBC 2025/${String(round).padStart(4, '0')}` }
          : {};
    const staffMove = async () => {
      if (move !== 'complete') {
        return call(t, {
          method: 'POST',
          url: `/api/admin/withdrawals/${tx.id}/${move}`,
          cookie: staff.cookie,
          body: { ...body, stepUp: stepUpFor(staff) },
        });
      }
      return call(t, {
        method: 'POST',
        url: `/api/admin/changes/${proposal}/approve`,
        cookie: approver.cookie,
        body: { stepUp: stepUpFor(approver) },
      });
    };
    let proposal: string | null = null;
    if (move === 'complete') {
      const proposed = await call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${tx.id}/complete`,
        cookie: staff.cookie,
        body: { ...body, stepUp: stepUpFor(staff) },
      });
      expect(proposed.statusCode, proposed.body).toBe(202);
      proposal = proposed.json().pending.id;
    }
    const [cancelled, acted] = await Promise.all([
      call(t, {
        method: 'POST',
        url: `/api/withdrawals/${tx.id}/cancel`,
        cookie: customer.cookie,
      }),
      staffMove(),
    ]);

    // Exactly one of the two is carried out; the other is told it came too late.
    const answers = [cancelled.statusCode, acted.statusCode].sort();
    expect(answers, `${cancelled.body} / ${acted.body}`).toEqual([200, 409]);
    const outcome = await outcomeOf(tx.id);
    const newMails = mailsTo(t, customer.email).length - mailsBefore;
    if (cancelled.statusCode === 200) {
      wins.customer += 1;
      expect(outcome).toEqual({
        status: 'failed',
        reason: HISTORY_MSG.cancelledReason,
        processed_by: customer.userId,
        approved: false,
        actions: ['withdrawal.cancel'],
      });
      expect(newMails).toBe(1);
      expect(acted.json().message).toBe(CANCELLED_FOR_STAFF);
    } else {
      wins.staff += 1;
      expect(cancelled.json().message).toMatch(
        move === 'approve' ? HISTORY_MSG.cancelTaken : /^This request was already/,
      );
      expect(outcome).toMatchObject({
        status: { approve: 'pending', reject: 'failed', complete: 'completed' }[move],
        processed_by: move === 'approve' ? null : staff.userId,
        approved: move === 'approve',
        actions: [`withdrawal.${move}`],
      });
      // Approval tells the customer nothing yet; a rejection or a payment does, once.
      expect(newMails).toBe(move === 'approve' ? 0 : 1);
      if (move === 'approve') held += hold;
      if (move === 'complete') balance -= hold;
    }
    expect(await walletOf(t, customer.userId, 'BTC')).toEqual({
      balance: fromMinor('BTC', balance),
      held: fromMinor('BTC', held),
    });
  }
  expect(wins.customer + wins.staff).toBe(ROUNDS);
  console.info(`cancel vs ${move} (${kind}): customer ${wins.customer}, staff ${wins.staff}`);
}

describe('a cancellation racing staff', () => {
  it('against a rejection of a withdrawal: one outcome each time', async () => {
    await race('withdrawal', 'reject');
  }, 120_000);

  it('against an approval of a withdrawal: one outcome each time', async () => {
    await race('withdrawal', 'approve');
  }, 120_000);

  it('against a bank payout paid out: one outcome each time', async () => {
    await race('bank', 'complete');
  }, 120_000);

  it('against a rejection of a bank payout: one outcome each time', async () => {
    await race('bank', 'reject');
  }, 120_000);
});
