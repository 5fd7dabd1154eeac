import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from '@server-test/helpers';
import {
  fund,
  GOOD_ADDRESS,
  requestBankTransfer,
  requestWithdrawal,
  setSetting,
} from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Staff reading a customer's bank account (a bank payout's, in the pending queue or one
 * transaction's detail) is audited: one row per request, naming what was read, never the
 * account itself.
 */

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let admin: SignedInUser;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  admin = await verifiedAdmin(t);
}, 60_000);
afterAll(async () => {
  await t.close();
  await feeds.close();
});

const ACCOUNT = {
  accountName: 'Marguerite Okafor',
  accountNumber: '98765432',
  bsbNumber: '062000',
};

async function bankReads() {
  const { rows } = await t.services.pool.query(
    `SELECT actor_id, target_type, target_id, target_user_id, after FROM audit_log
      WHERE action = 'bank_details.view' ORDER BY id`,
  );
  return rows;
}

describe("staff reading customers' bank accounts", () => {
  it('writes one audit row per request that showed an account, never the account', {
    timeout: 90_000,
  }, async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'ETH', '2');
    const onlyCrypto = await requestWithdrawal(t, customer, {
      assetId: 'ETH',
      amount: '0.1',
      address: GOOD_ADDRESS.ETH,
    });
    expect(onlyCrypto.statusCode, onlyCrypto.body).toBe(200);

    // A queue page of crypto withdrawals only shows no account: nothing is written.
    const crypto = await call(t, {
      url: '/api/admin/withdrawals/pending?type=withdrawal',
      cookie: admin.cookie,
    });
    expect(crypto.statusCode, crypto.body).toBe(200);
    expect(await bankReads()).toEqual([]);

    const paid = await requestBankTransfer(t, customer, {
      ...ACCOUNT,
      amountAud: '250',
      assetId: 'ETH',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const id: string = paid.json().transaction.id;

    const queue = await call(t, { url: '/api/admin/withdrawals/pending', cookie: admin.cookie });
    expect(queue.statusCode, queue.body).toBe(200);
    expect(queue.json().items.some((i: { bankTransfer: unknown }) => i.bankTransfer)).toBe(true);
    const detail = await call(t, { url: `/api/admin/transactions/${id}`, cookie: admin.cookie });
    expect(detail.statusCode, detail.body).toBe(200);

    const rows = await bankReads();
    expect(rows).toEqual([
      {
        actor_id: admin.userId,
        target_type: 'transaction',
        target_id: id,
        target_user_id: customer.userId,
        after: { place: 'pending-queue', transactionIds: [id], customerIds: [customer.userId] },
      },
      {
        actor_id: admin.userId,
        target_type: 'transaction',
        target_id: id,
        target_user_id: customer.userId,
        after: { place: 'transaction', transactionIds: [id], customerIds: [customer.userId] },
      },
    ]);
    const written = JSON.stringify(rows);
    for (const secret of Object.values(ACCOUNT)) expect(written).not.toContain(secret);

    // The customer reading their own saved details is no staff look.
    await call(t, { url: '/api/bank-details', cookie: customer.cookie });
    expect(await bankReads()).toHaveLength(2);
  });
});
