import { randomBytes } from 'node:crypto';
import { QUEUE_CURSOR_INVALID, type TAssetId, toMinor } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
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
  requestBankTransfer,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The Pending withdrawals queue: keyset pages in either order (rows with the same time
 * neither repeated nor skipped), its filters and its search.
 */

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let adminA: SignedInUser;
let adminB: SignedInUser;
let alice: SignedInUser;
let bob: SignedInUser;
/** Every pending payout here, oldest first as the queue should list them. */
const oldestFirst: string[] = [];
let bankId: string;
let approvedId: string;

type Item = {
  id: string;
  type: string;
  assetId: string;
  customer: { email: string };
  withdrawalAddress: string | null;
  payoutState?: string | null;
};
type Page = { items: Item[]; nextCursor: string | null; prevCursor: string | null; total: number };

const SAME_TIME = '2025-01-01T00:00:00.000Z';

/** A customer's pending crypto withdrawal, through the ledger as a request records it. */
async function pendingWithdrawal(user: SignedInUser, assetId: TAssetId, amount: string) {
  const row = await withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      userId: user.userId,
      assetId,
      type: 'withdrawal',
      direction: 'debit',
      amount: toMinor(assetId, amount),
      status: 'pending',
      withdrawalAddress: GOOD_ADDRESS[assetId],
      createdBy: null,
    }),
  );
  return row.id;
}

async function setDate(id: string, iso: string) {
  await t.services.pool.query('UPDATE transactions SET transaction_date = $2 WHERE id = $1', [
    id,
    iso,
  ]);
}

async function queue(query: Record<string, string> = {}): Promise<Page> {
  const res = await call(t, {
    url: `/api/admin/withdrawals/pending?${new URLSearchParams(query)}`,
    cookie: adminB.cookie,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every id of the queue, walking its pages forward with `limit`, then back again. */
async function walk(query: Record<string, string>, limit: number) {
  const forward: string[][] = [];
  let page = await queue({ ...query, limit: String(limit) });
  forward.push(page.items.map((i) => i.id));
  expect(page.prevCursor).toBeNull();
  while (page.nextCursor) {
    page = await queue({ ...query, limit: String(limit), cursor: page.nextCursor });
    forward.push(page.items.map((i) => i.id));
  }
  const backward: string[][] = [page.items.map((i) => i.id)];
  while (page.prevCursor) {
    page = await queue({ ...query, limit: String(limit), cursor: page.prevCursor });
    backward.unshift(page.items.map((i) => i.id));
  }
  return { forward, backward, total: page.total };
}

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  adminA = await spareStepUps(t, await verifiedAdmin(t));
  adminB = await spareStepUps(t, await verifiedAdmin(t));
  const tag = randomBytes(3).toString('hex');
  alice = await verifiedCustomer(t, `al_ice.${tag}@example.com`);
  bob = await verifiedCustomer(t, `bob.${tag}@example.com`);
  await fund(t, alice.userId, 'ETH', '10');
  await fund(t, alice.userId, 'BTC', '1');
  await fund(t, bob.userId, 'ETH', '10');

  // The oldest: a bank payout, then six withdrawals sharing one instant, then the newest.
  const bank = await requestBankTransfer(t, bob, {
    accountName: 'Jane Citizen',
    accountNumber: '12345678',
    bsbNumber: '062000',
    amountAud: '250.5',
    assetId: 'ETH',
  });
  expect(bank.statusCode, bank.body).toBe(200);
  bankId = bank.json().transaction.id;
  await setDate(bankId, '2024-12-01T08:00:00.000Z');
  const tied: string[] = [];
  for (const [user, asset, amount] of [
    [alice, 'ETH', '0.1'],
    [bob, 'ETH', '0.2'],
    [alice, 'BTC', '0.123'],
    [bob, 'ETH', '0.3'],
    [alice, 'ETH', '0.4'],
    [bob, 'ETH', '0.5'],
  ] as const) {
    const id = await pendingWithdrawal(user, asset, amount);
    await setDate(id, SAME_TIME);
    tied.push(id);
  }
  const newest = await pendingWithdrawal(alice, 'ETH', '0.7');
  await setDate(newest, '2025-02-01T00:00:00.000Z');
  // Rows of the same instant are ordered by id.
  oldestFirst.push(bankId, ...tied.sort(), newest);

  approvedId = tied[0] as string;
  const approval = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${approvedId}/approve`,
    cookie: adminA.cookie,
    body: { stepUp: stepUpFor(adminA) },
  });
  expect(approval.statusCode, approval.body).toBe(200);
});

afterAll(async () => {
  await expectReconciled(t);
  await t.close();
  await feeds.close();
});

describe('GET /api/admin/withdrawals/pending', () => {
  it('lists the oldest first, with how many wait and each approved payout’s state', async () => {
    const page = await queue();
    expect(page.items.map((i) => i.id)).toEqual(oldestFirst);
    expect(page).toMatchObject({ total: oldestFirst.length, nextCursor: null, prevCursor: null });
    expect(page.items.find((i) => i.id === approvedId)?.payoutState).toBe('approved');
    expect(page.items[0]).toMatchObject({ id: bankId, type: 'bank_transfer' });
  });

  it('pages by keyset: rows of the same instant are never repeated or skipped, forward or back', async () => {
    for (const limit of [1, 2, 3, 4]) {
      const { forward, backward, total } = await walk({}, limit);
      expect(forward.flat()).toEqual(oldestFirst);
      expect(backward).toEqual(forward);
      expect(total).toBe(oldestFirst.length);
      expect(forward.every((p) => p.length <= limit)).toBe(true);
    }
    const newest = await walk({ order: 'newest' }, 3);
    expect(newest.forward.flat()).toEqual([...oldestFirst].reverse());
    expect(newest.backward).toEqual(newest.forward);
  });

  it('filters by type, asset and approval, and pages within the filter', async () => {
    expect((await queue({ type: 'bank_transfer' })).items.map((i) => i.id)).toEqual([bankId]);
    const crypto = await queue({ type: 'withdrawal' });
    expect(crypto.items.map((i) => i.id)).toEqual(oldestFirst.slice(1));
    expect(crypto.total).toBe(oldestFirst.length - 1);

    const btc = await queue({ asset: 'BTC' });
    expect(btc.items.map((i) => [i.assetId, i.customer.email])).toEqual([['BTC', alice.email]]);

    expect((await queue({ approval: 'approved' })).items.map((i) => i.id)).toEqual([approvedId]);
    const waiting = await queue({ approval: 'waiting' });
    // A bank payout needs no approval: it is in neither.
    expect(waiting.items.map((i) => i.id)).toEqual(
      oldestFirst.filter((id) => id !== approvedId && id !== bankId),
    );

    const eth = await walk({ asset: 'ETH', type: 'withdrawal', order: 'newest' }, 2);
    expect(eth.total).toBe(6);
    expect(new Set(eth.forward.flat()).size).toBe(6);
  });

  it('searches the customer’s e-mail, the destination address and exact amounts', async () => {
    const byEmail = await queue({ q: bob.email.slice(0, 10).toUpperCase() });
    expect(new Set(byEmail.items.map((i) => i.customer.email))).toEqual(new Set([bob.email]));
    expect(byEmail.total).toBe(4);

    const byAddress = await queue({ q: GOOD_ADDRESS.BTC.slice(8, 24) });
    expect(byAddress.items.map((i) => i.assetId)).toEqual(['BTC']);

    expect((await queue({ q: '0.123' })).items.map((i) => i.assetId)).toEqual(['BTC']);
    // The bank payout's AUD figure, typed as staff read it.
    expect((await queue({ q: '250.50' })).items.map((i) => i.id)).toEqual([bankId]);
    expect((await queue({ q: '0.12' })).total).toBe(0);
  });

  it('takes % and _ in the search as the characters themselves', async () => {
    const underscore = await queue({ q: '_' });
    expect(new Set(underscore.items.map((i) => i.customer.email))).toEqual(new Set([alice.email]));
    expect(underscore.total).toBe(4);
    expect(await queue({ q: '%' })).toMatchObject({ items: [], total: 0, nextCursor: null });
    expect((await queue({ q: 'al%ice' })).total).toBe(0);
  });

  it('refuses bad parameters with a 400 that says what is wrong, changing nothing', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ asset: 'DOGE' }, 'Choose an asset from the list.'],
      [{ type: 'deposit' }, 'Choose crypto withdrawals, bank payouts or all.'],
      [{ approval: 'maybe' }, 'Choose approved, waiting or all.'],
      [{ order: 'sideways' }, 'Sort by oldest or newest.'],
      [{ limit: '0' }, 'The page size must be a number from 1 to 100.'],
      [{ limit: '101' }, 'The page size must be a number from 1 to 100.'],
      [{ limit: 'ten' }, 'The page size must be a number from 1 to 100.'],
      [{ q: 'x'.repeat(201) }, 'Keep the search under 200 characters.'],
      [{ cursor: 'not a cursor' }, QUEUE_CURSOR_INVALID],
      [{ cursor: Buffer.from('a:1:nope').toString('base64url') }, QUEUE_CURSOR_INVALID],
      [
        { cursor: Buffer.from(`a:999999999999999999:${bankId}`).toString('base64url') },
        QUEUE_CURSOR_INVALID,
      ],
    ];
    for (const [query, message] of cases) {
      const res = await withoutChange(t, () =>
        call(t, {
          url: `/api/admin/withdrawals/pending?${new URLSearchParams(query)}`,
          cookie: adminB.cookie,
        }),
      );
      expect([res.statusCode, errorOf(res)], JSON.stringify(query)).toEqual([
        400,
        { error: 'VALIDATION_FAILED', message },
      ]);
    }
  });

  it('is for staff only', async () => {
    const res = await call(t, { url: '/api/admin/withdrawals/pending', cookie: alice.cookie });
    expect(res.statusCode).toBe(403);
  });
});
