import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFeeds } from '../../../test/fake-feeds';
import {
  call,
  createTestApp,
  databaseText,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
  withoutChange,
} from '../../../test/helpers';
import { expectReconciled, fund, walletOf } from '../../../test/money-helpers';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh(); // 1 AUD = 0.6543 USD
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

const TRANSFER = {
  accountName: 'Marguerite Okafor',
  accountNumber: '98765432',
  bsbNumber: '062000',
  amountAud: '250.5',
};

/** One customer for the refusals: each changes nothing, so they can share an account. */
let refused: SignedInUser | undefined;
async function refusedCustomer(): Promise<SignedInUser> {
  refused ??= await verifiedCustomer(t);
  return refused;
}

function transfer(user: SignedInUser, body: Record<string, unknown>) {
  return call(t, { method: 'POST', url: '/api/bank-transfers', cookie: user.cookie, body });
}

describe('POST /api/bank-transfers', () => {
  it('writes the customer.md §3 row, plus the AUD amount and rate, and the account encrypted', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const res = await transfer(user, TRANSFER);
    expect(res.statusCode).toBe(200);
    const { transaction } = res.json();
    expect(transaction).toMatchObject({
      type: 'bank_transfer',
      direction: 'none',
      assetId: 'AUD',
      symbol: 'AUD',
      network: null,
      amount: '0',
      fee: '0',
      audAmount: '250.50',
      // What it is worth: 250.50 AUD × 0.6543, not the AUD figure the row keeps in usd_amount.
      usdAmount: '163.90',
      status: 'pending',
    });

    const { rows } = await t.services.pool.query(
      `SELECT transaction_type, direction, asset_id, network, crypto_amount::text, usd_amount::text, aud_amount::text,
              currency, exchange_rate::text, status, wallet_id, created_by
         FROM transactions WHERE id = $1`,
      [transaction.id],
    );
    expect(rows).toEqual([
      {
        transaction_type: 'bank_transfer',
        direction: 'none',
        asset_id: 'AUD',
        network: null,
        crypto_amount: '0.000000000000000000',
        usd_amount: '250.50',
        aud_amount: '250.50',
        currency: 'AUD',
        exchange_rate: '0.6543000000',
        status: 'pending',
        wallet_id: null,
        created_by: user.userId,
      },
    ]);
    const bank = await t.services.pool.query(
      'SELECT * FROM bank_transfers WHERE transaction_id = $1',
      [transaction.id],
    );
    expect(bank.rows).toHaveLength(1);
    const row = bank.rows[0];
    expect(row).toMatchObject({ amount_fiat: '250.50', currency: 'AUD' });
    expect(t.services.secrets.decrypt(row.account_name_encrypted)).toBe('Marguerite Okafor');
    expect(t.services.secrets.decrypt(row.account_number_encrypted)).toBe('98765432');
    expect(t.services.secrets.decrypt(row.bsb_number_encrypted)).toBe('062000');
    const everything = JSON.stringify(await databaseText(t));
    expect(everything).not.toContain('98765432');
    expect(everything).not.toContain('Marguerite');
    // No crypto moves.
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    await expectReconciled(t);
  });

  it.each([
    ['no account number', { ...TRANSFER, accountNumber: ' ' }, 'Account number is required'],
    ['no account name', { ...TRANSFER, accountName: '' }, 'Account name is required'],
    [
      'a short BSB',
      { ...TRANSFER, bsbNumber: '06200' },
      'BSB number must be at least 6 characters',
    ],
    [
      'a long BSB',
      { ...TRANSFER, bsbNumber: '0620001' },
      'BSB number must be exactly 6 characters',
    ],
    ['a zero amount', { ...TRANSFER, amountAud: '0' }, 'Amount must be greater than 0'],
    [
      'an amount below a cent',
      { ...TRANSFER, amountAud: '0.001' },
      'Amount must be greater than 0',
    ],
    [
      'an amount as a number',
      { ...TRANSFER, amountAud: 10 },
      'Invalid input: expected string, received number',
    ],
  ])('refuses %s with the spec message and writes nothing', async (_what, body, message) => {
    const user = await refusedCustomer();
    const res = await withoutChange(t, () => transfer(user, body));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
  });
});

describe('/api/bank-details (DEVIATIONS M9)', () => {
  it('saves the details encrypted, one row per customer, readable only by their owner', async () => {
    const owner = await verifiedCustomer(t);
    const stranger = await verifiedCustomer(t);
    expect((await call(t, { url: '/api/bank-details', cookie: owner.cookie })).json()).toEqual({
      details: null,
    });

    const saved = await call(t, {
      method: 'PUT',
      url: '/api/bank-details',
      cookie: owner.cookie,
      body: { fullName: ' Tomasz Wiśniewski ', bsb: '062 000', accountNumber: '1234567890' },
    });
    expect(saved.statusCode).toBe(200);
    const details = { fullName: 'Tomasz Wiśniewski', bsb: '062000', accountNumber: '1234567890' };
    expect(saved.json()).toEqual({ details });
    expect((await call(t, { url: '/api/bank-details', cookie: owner.cookie })).json()).toEqual({
      details,
    });

    const everything = JSON.stringify(await databaseText(t));
    expect(everything).not.toContain('1234567890');
    expect(everything).not.toContain('Wiśniewski');

    const replaced = { fullName: 'Tomasz W', bsb: '123-456', accountNumber: '555666' };
    await call(t, {
      method: 'PUT',
      url: '/api/bank-details',
      cookie: owner.cookie,
      body: replaced,
    });
    expect((await call(t, { url: '/api/bank-details', cookie: owner.cookie })).json()).toEqual({
      details: { fullName: 'Tomasz W', bsb: '123456', accountNumber: '555666' },
    });
    const { rows } = await t.services.pool.query(
      'SELECT count(*)::int AS n FROM user_bank_details WHERE user_id = $1',
      [owner.userId],
    );
    expect(rows[0].n).toBe(1);

    expect((await call(t, { url: '/api/bank-details', cookie: stranger.cookie })).json()).toEqual({
      details: null,
    });
  });

  it.each([
    ['no name', { fullName: ' ', bsb: '062000', accountNumber: '123456' }, 'Full name is required'],
    [
      'a one-letter name',
      { fullName: 'A', bsb: '062000', accountNumber: '123456' },
      'Full name must be at least 2 characters',
    ],
    ['no BSB', { fullName: 'Ann', bsb: '', accountNumber: '123456' }, 'BSB number is required'],
    [
      'a five-digit BSB',
      { fullName: 'Ann', bsb: '06200', accountNumber: '123456' },
      'BSB must be 6 digits',
    ],
    [
      'no account number',
      { fullName: 'Ann', bsb: '062000', accountNumber: '' },
      'Account number is required',
    ],
    [
      'a short account number',
      { fullName: 'Ann', bsb: '062000', accountNumber: '12345' },
      'Account number must be 6-10 digits',
    ],
    [
      'letters in the account number',
      { fullName: 'Ann', bsb: '062000', accountNumber: '12345a' },
      'Account number must be 6-10 digits',
    ],
  ])('refuses %s with the spec message', async (_what, body, message) => {
    const user = await refusedCustomer();
    const res = await withoutChange(t, () =>
      call(t, { method: 'PUT', url: '/api/bank-details', cookie: user.cookie, body }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
  });
});
