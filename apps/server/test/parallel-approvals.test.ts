import { STEP_UP_MSG } from '@coffer/shared';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
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
  requestBankTransfer,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One admin deciding many payouts at once (a click-happy browser, a script, four tabs), with
 * right and wrong second factors mixed: every request is answered with its own outcome (200,
 * or a 4xx naming why), never a 500 or a 503; PostgreSQL never reports a deadlock on any
 * connection (the main pool's or the limiter's own), not even one that a retry would hide;
 * and right answers never lock the admin out.
 */

/**
 * Every PostgreSQL error any connection of this process met, by SQLSTATE: a deadlock that
 * `withTransaction` retried is gone from the answer, but not from here. The app runs in this
 * process, so its pools' clients are these.
 */
const sqlStates: string[] = [];
const originalQuery = pg.Client.prototype.query;
function watchQueries() {
  const note = (err: unknown) => {
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string') sqlStates.push(code);
  };
  // pg's query has a dozen overloads: this wrapper takes them all as one variadic call.
  const client = pg.Client.prototype as unknown as {
    query: (this: pg.Client, ...args: unknown[]) => unknown;
  };
  client.query = function (this: pg.Client, ...args: unknown[]) {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (err: unknown, res: unknown) => {
        if (err) note(err);
        (last as (err: unknown, res: unknown) => void)(err, res);
      };
      return originalQuery.apply(this, args as never);
    }
    const out = originalQuery.apply(this, args as never) as unknown;
    if (out instanceof Promise) out.catch(note);
    return out;
  };
}
const deadlocks = () => sqlStates.filter((s) => s === '40P01').length;

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let customer: SignedInUser;
beforeAll(async () => {
  watchQueries();
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'ETH', '1000');
  // The watch sees what the app's connections meet.
  await t.services.pool.query('SELECT 1 / 0').catch(() => {});
  expect(sqlStates).toContain('22012');
}, 60_000);
afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await t.close();
  await feeds.close();
});

const SLOW = { timeout: 180_000 };

/** A backup code of the right shape that the admin was never given: a guess. */
const WRONG = { code: 'WRNG2345' };

async function pendingWithdrawals(n: number): Promise<string[]> {
  await spareStepUps(t, customer);
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

const decide = (
  admin: SignedInUser,
  id: string,
  action: 'approve' | 'reject',
  stepUp: { code: string },
) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/${action}`,
    cookie: admin.cookie,
    body: action === 'approve' ? { stepUp } : { stepUp, reason: 'Parallel test' },
  });

async function payoutStates(ids: string[]): Promise<Map<string, string>> {
  const { rows } = await t.services.pool.query<{ id: string; state: string }>(
    'SELECT transaction_id AS id, state FROM payouts WHERE transaction_id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.state]));
}

async function statuses(ids: string[]): Promise<Map<string, string>> {
  const { rows } = await t.services.pool.query<{ id: string; status: string }>(
    'SELECT id, status FROM transactions WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.status]));
}

async function auditedIds(ids: string[]): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ id: string }>(
    `SELECT target_id AS id FROM audit_log
      WHERE action IN ('withdrawal.approve', 'withdrawal.reject') AND target_id = ANY($1::text[])`,
    [ids],
  );
  return rows.map((r) => r.id).sort();
}

async function stepUpGuesses(admin: SignedInUser): Promise<number> {
  const { rows } = await t.services.pool.query<{ count: number }>(
    'SELECT count FROM rate_limits WHERE key = $1',
    [`step-up:account:${admin.userId}`],
  );
  return rows[0]?.count ?? 0;
}

/** What the requests' address has on its step-up count (every request here comes from one). */
async function addressCount(): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    "SELECT coalesce(sum(count), 0)::int AS n FROM rate_limits WHERE key LIKE 'step-up:ip:%'",
  );
  return rows[0]?.n ?? 0;
}

type Plan = { action: 'approve' | 'reject'; right: boolean };

/**
 * Sends every planned decision at once, one withdrawal each, and checks each answer: a right
 * factor is a 200 and does what it says, a wrong one a 400 that changed nothing.
 */
async function decideAtOnce(admin: SignedInUser, plan: Plan[]) {
  const ids = await pendingWithdrawals(plan.length);
  const before = deadlocks();
  const answers = await Promise.all(
    plan.map((p, i) => decide(admin, ids[i] ?? '', p.action, p.right ? stepUpFor(admin) : WRONG)),
  );
  const states = await payoutStates(ids);
  const status = await statuses(ids);
  for (const [i, p] of plan.entries()) {
    const res = answers[i];
    const id = ids[i] ?? '';
    if (!res) throw new Error('no answer');
    expect(res.statusCode, `${p.action} (${p.right ? 'right' : 'wrong'} factor): ${res.body}`).toBe(
      p.right ? 200 : 400,
    );
    if (!p.right) {
      expect(errorOf(res)).toEqual({ error: 'INVALID_CODE', message: STEP_UP_MSG.invalid });
      expect(states.get(id)).toBeUndefined();
      expect(status.get(id)).toBe('pending');
    } else if (p.action === 'approve') {
      expect(states.get(id)).toBe('approved');
    } else {
      // A rejected withdrawal is a failed one, its hold released.
      expect(status.get(id)).toBe('failed');
    }
  }
  expect(await auditedIds(ids)).toEqual(ids.filter((_, i) => plan[i]?.right).sort());
  expect(deadlocks() - before, `SQLSTATEs met: ${sqlStates.join(' ')}`).toBe(0);
  return ids;
}

describe('parallel payout decisions by one admin', () => {
  it(
    '8 approvals at once, each with its own backup code, five times: all approved, no deadlock',
    SLOW,
    async () => {
      const admin = await spareStepUps(t, await verifiedAdmin(t));
      for (let loop = 0; loop < 5; loop++) {
        await decideAtOnce(
          admin,
          Array.from({ length: 8 }, () => ({ action: 'approve', right: true })),
        );
        expect(await stepUpGuesses(admin)).toBe(0);
        // Every right answer was taken off the address's count again, too.
        expect(await addressCount()).toBe(0);
      }
      await expectReconciled(t);
    },
  );

  it(
    'approvals and rejections with right and wrong factors at once, five times: each its own answer, no deadlock, never locked out',
    SLOW,
    async () => {
      const admin = await spareStepUps(t, await verifiedAdmin(t));
      for (let loop = 0; loop < 5; loop++) {
        // Two guesses a round: fewer than the five the limit allows, even with the two a
        // previous round may have left after its last right answer.
        await decideAtOnce(admin, [
          { action: 'approve', right: true },
          { action: 'approve', right: false },
          { action: 'reject', right: true },
          { action: 'approve', right: true },
          { action: 'reject', right: false },
          { action: 'approve', right: true },
          { action: 'reject', right: true },
          { action: 'approve', right: true },
        ]);
        expect(await stepUpGuesses(admin)).toBeLessThanOrEqual(2);
      }
      // Not locked out: the next right answer goes through at once.
      const [last] = await pendingWithdrawals(1);
      const res = await decide(admin, last ?? '', 'approve', stepUpFor(admin));
      expect(res.statusCode, res.body).toBe(200);
      expect(await stepUpGuesses(admin)).toBe(0);
      await expectReconciled(t);
    },
  );

  it(
    'two admins from one address, 8 decisions each at once: no deadlock on the shared address counter',
    SLOW,
    async () => {
      const first = await spareStepUps(t, await verifiedAdmin(t));
      const second = await spareStepUps(t, await verifiedAdmin(t));
      for (let loop = 0; loop < 3; loop++) {
        const plan: Plan[] = Array.from({ length: 8 }, (_, i) => ({
          action: i % 3 === 2 ? 'reject' : 'approve',
          right: i % 4 !== 3,
        }));
        await Promise.all([decideAtOnce(first, plan), decideAtOnce(second, plan)]);
      }
      await expectReconciled(t);
    },
  );

  it(
    'hand completions approved and bank payouts rejected at once, for one customer: no deadlock',
    SLOW,
    async () => {
      // A completion's approval takes the approver's step-up and then the customer's wallet;
      // a rejection takes the wallet and then the step-up: the same admin doing both at
      // once must not wait on themself.
      const proposer = await spareStepUps(t, await verifiedAdmin(t));
      const approver = await spareStepUps(t, await verifiedAdmin(t));
      for (let loop = 0; loop < 3; loop++) {
        await spareStepUps(t, customer);
        const ids: string[] = [];
        for (let i = 0; i < 8; i++) {
          const res = await requestBankTransfer(t, customer, {
            accountName: 'Jane Citizen',
            accountNumber: '12345678',
            bsbNumber: '062000',
            amountAud: '25',
            assetId: 'ETH',
          });
          expect(res.statusCode, res.body).toBe(200);
          ids.push(res.json().transaction.id);
        }
        const toComplete = ids.filter((_, i) => i % 2 === 0);
        const toReject = ids.filter((_, i) => i % 2 === 1);
        const changes: string[] = [];
        for (const [i, id] of toComplete.entries()) {
          const res = await call(t, {
            method: 'POST',
            url: `/api/admin/withdrawals/${id}/complete`,
            cookie: proposer.cookie,
            body: { reference: `REF-${loop}-${i}`, stepUp: stepUpFor(proposer) },
          });
          expect(res.statusCode, res.body).toBe(202);
          changes.push(res.json().pending.id);
        }
        const before = deadlocks();
        const answers = await Promise.all([
          ...changes.map((id) =>
            call(t, {
              method: 'POST',
              url: `/api/admin/changes/${id}/approve`,
              cookie: approver.cookie,
              body: { stepUp: stepUpFor(approver) },
            }),
          ),
          ...toReject.map((id) => decide(approver, id, 'reject', stepUpFor(approver))),
        ]);
        for (const res of answers) expect(res.statusCode, res.body).toBe(200);
        const status = await statuses(ids);
        for (const id of toComplete) expect(status.get(id)).toBe('completed');
        for (const id of toReject) expect(status.get(id)).toBe('failed');
        expect(deadlocks() - before, `SQLSTATEs met: ${sqlStates.join(' ')}`).toBe(0);
      }
      await expectReconciled(t);
    },
  );
});
