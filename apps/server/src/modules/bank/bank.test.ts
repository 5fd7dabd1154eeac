import { ADMIN_TX_MSG, MONEY_MSG, PAYOUT_MSG } from '@coffer/shared';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  approveChange,
  call,
  createTestApp,
  databaseText,
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
  saveBankDetails,
  setSetting,
  stepUpFor,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

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
  assetId: 'ETH',
};
// A$250.50 at 0.6543 USD per AUD is $163.90; at $3,000 an ETH that is 0.0546333… ETH,
// rounded up to the wei so the hold always covers the value.
const HELD_ETH = '0.054633333333333334';

/** One customer for the refusals: each changes nothing, so they can share an account. */
let refused: SignedInUser | undefined;
async function refusedCustomer(): Promise<SignedInUser> {
  refused ??= await verifiedCustomer(t);
  return refused;
}

const transfer = (user: SignedInUser, body: Record<string, unknown>, idempotencyKey?: string) =>
  requestBankTransfer(t, user, body, idempotencyKey);

function staff(admin: SignedInUser, id: string, action: 'complete' | 'reject', body: object) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/${action}`,
    cookie: admin.cookie,
    // Staff confirm a payout with a fresh second factor of their own.
    body: { ...body, stepUp: stepUpFor(admin) },
  });
}

describe('POST /api/bank-transfers: a withdrawal in AUD (product.md M11)', () => {
  it('holds the funding asset at the server rates and keeps both figures and rates', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    // A rate or figure the client sends is not the server's: it is ignored.
    const res = await transfer(user, {
      ...TRANSFER,
      audUsdRate: '5',
      priceUsd: '1',
      usdAmount: '1',
    });
    expect(res.statusCode).toBe(200);
    const { transaction } = res.json();
    expect(transaction).toMatchObject({
      type: 'bank_transfer',
      direction: 'debit',
      assetId: 'ETH',
      symbol: 'ETH',
      network: 'ethereum',
      amount: HELD_ETH,
      fee: '0',
      audAmount: '250.50',
      usdAmount: '163.90',
      audUsdRate: '0.6543',
      priceUsd: '3000',
      status: 'pending',
    });
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({ balance: '1', held: HELD_ETH });

    const { rows } = await t.services.pool.query(
      `SELECT transaction_type, direction, asset_id, crypto_amount::text, usd_amount::text, aud_amount::text,
              currency, exchange_rate::text, price_usd::text, status, created_by,
              wallet_id = (SELECT id FROM user_wallets w WHERE w.user_id = t.user_id AND w.asset_id = 'ETH') AS on_eth_wallet
         FROM transactions t WHERE id = $1`,
      [transaction.id],
    );
    expect(rows).toEqual([
      {
        transaction_type: 'bank_transfer',
        direction: 'debit',
        asset_id: 'ETH',
        crypto_amount: HELD_ETH,
        usd_amount: '163.90',
        aud_amount: '250.50',
        currency: 'AUD',
        exchange_rate: '0.6543000000',
        price_usd: '3000.0000000000',
        status: 'pending',
        created_by: user.userId,
        on_eth_wallet: true,
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

    // The customer's history shows it as it is: the asset, the amount held, both figures, the rates.
    const history = await call(t, { url: '/api/transactions', cookie: user.cookie });
    expect(history.json().items[0]).toMatchObject({
      id: transaction.id,
      assetId: 'ETH',
      amount: HELD_ETH,
      audAmount: '250.50',
      usdAmount: '163.90',
      audUsdRate: '0.6543',
      priceUsd: '3000',
    });
  });

  it('a second admin completing it debits the hold; a bank reference is required', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    const { transaction } = (await transfer(user, TRANSFER)).json();
    const admin = await verifiedAdmin(t);
    for (const reference of ['hello', '', '   ', `0x${'a'.repeat(64)}-`, 'REF']) {
      const res = await withoutChange(t, () =>
        staff(admin, transaction.id, 'complete', { reference }),
      );
      expect(res.statusCode).toBe(400);
    }
    // Paid by hand: one staff member proposes it (the hold stays), a second approves it.
    const proposed = await staff(admin, transaction.id, 'complete', {
      reference: ' WBC  20261124-0042 ',
    });
    expect(proposed.statusCode, proposed.body).toBe(202);
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({
      balance: '1',
      held: HELD_ETH,
    });
    const second = await verifiedAdmin(t);
    const done = await approveChange(t, second, proposed.json().pending.id);
    expect(done.statusCode, done.body).toBe(200);
    const row = await call(t, {
      url: `/api/admin/transactions/${transaction.id}`,
      cookie: second.cookie,
    });
    expect(row.json().transaction).toMatchObject({
      status: 'completed',
      transactionHash: 'WBC 20261124-0042',
      processedBy: admin.userId,
    });
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({
      balance: '0.945366666666666666',
      held: '0',
    });
    // Quoted-printable soft line breaks undone.
    const mail = (mailsTo(t, user.email).at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('Your bank transfer has been sent');
    expect(mail).toContain(`Paid from your wallet: ${HELD_ETH} ETH`);
    // Final: a second completion, a rejection or an edit is refused and changes nothing.
    const again = await withoutChange(t, () =>
      staff(admin, transaction.id, 'reject', { reason: 'Changed my mind' }),
    );
    expect(again.statusCode).toBe(409);
  });

  it('a request from before payouts were funded holds nothing and can only be rejected', async () => {
    const user = await verifiedCustomer(t);
    // The shape the release before wrote: AUD, no wallet, nothing held.
    const { rows } = await t.services.pool.query<{ id: string }>(
      `INSERT INTO transactions (user_id, transaction_type, direction, asset_id, crypto_amount, usd_amount,
         aud_amount, currency, exchange_rate, status, created_by)
       VALUES ($1, 'bank_transfer', 'none', 'AUD', 0, 50000, 50000, 'AUD', 0.6543, 'pending', $1)
       RETURNING id`,
      [user.userId],
    );
    const id = rows[0]?.id ?? '';
    const admin = await verifiedAdmin(t);
    const paid = await withoutChange(t, () =>
      staff(admin, id, 'complete', { reference: 'WBC 20261124-0042' }),
    );
    expect(paid.statusCode).toBe(409);
    expect(errorOf(paid)).toEqual({ error: 'CONFLICT', message: ADMIN_TX_MSG.unfundedPayout });
    const rejected = await staff(admin, id, 'reject', { reason: 'Please request it again' });
    expect(rejected.statusCode).toBe(200);
  });

  it('rejecting it releases the hold and tells the customer it was rejected, and why', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    const { transaction } = (await transfer(user, TRANSFER)).json();
    const admin = await verifiedAdmin(t);
    const res = await staff(admin, transaction.id, 'reject', {
      reason: 'The account name does not match yours',
    });
    expect(res.statusCode).toBe(200);
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({ balance: '1', held: '0' });
    const mail = mailsTo(t, user.email).at(-1) ?? '';
    expect(mail).toContain('Subject: Your bank transfer was rejected');
    expect(mail).toContain('Reason: The account name does not match yours');
    expect(mail).not.toMatch(/failed/i);
    const history = await call(t, { url: '/api/transactions', cookie: user.cookie });
    expect(history.json().items[0]).toMatchObject({
      status: 'failed',
      reason: 'The account name does not match yours',
    });
  });

  it('refuses a payout larger than the funding asset has available, naming what is', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '0.05');
    for (const amountAud of ['250.5', '50000', '999999999999.99']) {
      const res = await withoutChange(t, () => transfer(user, { ...TRANSFER, amountAud }));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'INSUFFICIENT_BALANCE',
        message: 'Insufficient balance. You have 0.05000000 ETH available',
      });
    }
    // Another asset with nothing in it is refused the same way.
    const btc = await withoutChange(t, () => transfer(user, { ...TRANSFER, assetId: 'BTC' }));
    expect(errorOf(btc).message).toBe('Insufficient balance. You have 0.00000000 BTC available');
  });

  it('counts towards the daily withdrawal limit together with crypto withdrawals', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'USDT-ERC20', '1000');
    await setSetting(t, 'max_daily_withdrawal', '300');
    try {
      const withdrawn = await requestWithdrawal(t, user, {
        assetId: 'USDT-ERC20',
        amount: '100',
        address: GOOD_ADDRESS['USDT-ERC20'],
      });
      expect(withdrawn.statusCode).toBe(200);
      // A$250.50 is $163.90: $263.90 of $300 used.
      const paid = await transfer(user, { ...TRANSFER, assetId: 'USDT-ERC20' });
      expect(paid.statusCode).toBe(200);
      const status = await call(t, { url: '/api/money/status', cookie: user.cookie });
      expect(status.json()).toMatchObject({
        withdrawnTodayUsd: '263.90',
        remainingTodayUsd: '36.10',
      });

      const over = await withoutChange(t, () =>
        transfer(user, { ...TRANSFER, assetId: 'USDT-ERC20', amountAud: '100' }),
      );
      expect(over.statusCode).toBe(400);
      expect(errorOf(over)).toEqual({
        error: 'LIMIT_EXCEEDED',
        message:
          'This withdrawal would exceed your daily limit of $300.00. You can withdraw $36.10 more today.',
      });
      const overWithdrawal = await withoutChange(t, () =>
        requestWithdrawal(t, user, {
          assetId: 'USDT-ERC20',
          amount: '40',
          address: GOOD_ADDRESS['USDT-ERC20'],
        }),
      );
      expect(errorOf(overWithdrawal).error).toBe('LIMIT_EXCEEDED');
    } finally {
      await setSetting(t, 'max_daily_withdrawal', '10000');
    }
  });

  it('stops while withdrawals are off or in maintenance', async () => {
    const user = await refusedCustomer();
    await fund(t, user.userId, 'ETH', '1');
    for (const [key, value, message] of [
      ['withdrawals_enabled', 'false', MONEY_MSG.withdrawalsDisabled],
      ['maintenance_mode', 'true', MONEY_MSG.maintenance],
    ] as const) {
      await setSetting(t, key, value);
      try {
        const res = await withoutChange(t, () => transfer(user, TRANSFER));
        expect(errorOf(res)).toEqual({ error: 'SERVICE_DISABLED', message });
      } finally {
        await setSetting(t, key, key === 'withdrawals_enabled' ? 'true' : 'false');
      }
    }
  });

  it('a repeated request with the same Idempotency-Key holds once', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    const first = await transfer(user, TRANSFER, 'payout-1');
    const again = await transfer(user, TRANSFER, 'payout-1');
    expect(again.json()).toEqual(first.json());
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({ balance: '1', held: HELD_ETH });
  });

  it.each([
    ['no account number', { ...TRANSFER, accountNumber: ' ' }, 'Account number is required'],
    [
      'letters for an account number',
      { ...TRANSFER, accountNumber: 'abcdefgh' },
      'Account number must be 6-10 digits',
    ],
    ['no account name', { ...TRANSFER, accountName: '' }, 'Account name is required'],
    ['no BSB', { ...TRANSFER, bsbNumber: '' }, 'BSB number is required'],
    ['letters for a BSB', { ...TRANSFER, bsbNumber: 'abcdef' }, 'BSB must be 6 digits'],
    ['a short BSB', { ...TRANSFER, bsbNumber: '06200' }, 'BSB must be 6 digits'],
    ['a long BSB', { ...TRANSFER, bsbNumber: '0620001' }, 'BSB must be 6 digits'],
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
    ['no funding asset', { ...TRANSFER, assetId: undefined }, PAYOUT_MSG.selectAsset],
    ['an unknown funding asset', { ...TRANSFER, assetId: 'DOGE' }, PAYOUT_MSG.selectAsset],
    ['a staff-only asset', { ...TRANSFER, assetId: 'USDC' }, PAYOUT_MSG.selectAsset],
  ])('refuses %s with the message and writes nothing', async (_what, body, message) => {
    const user = await refusedCustomer();
    const res = await withoutChange(t, () => transfer(user, body));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
  });

  it('takes a BSB written 062-000 as the bank-details form does', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'ETH', '1');
    const res = await transfer(user, { ...TRANSFER, bsbNumber: '062-000' });
    expect(res.statusCode).toBe(200);
    const { rows } = await t.services.pool.query(
      'SELECT bsb_number_encrypted FROM bank_transfers WHERE transaction_id = $1',
      [res.json().transaction.id],
    );
    expect(t.services.secrets.decrypt(rows[0].bsb_number_encrypted)).toBe('062000');
  });
});

describe('/api/bank-details (product.md M9)', () => {
  it('saves the details encrypted, one row per customer, readable only by their owner', async () => {
    const owner = await verifiedCustomer(t);
    const stranger = await verifiedCustomer(t);
    expect((await call(t, { url: '/api/bank-details', cookie: owner.cookie })).json()).toEqual({
      details: null,
    });

    const saved = await saveBankDetails(t, owner, {
      fullName: ' Tomasz Wiśniewski ',
      bsb: '062 000',
      accountNumber: '1234567890',
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
    expect((await saveBankDetails(t, owner, replaced)).statusCode).toBe(200);
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
    const res = await withoutChange(t, () => saveBankDetails(t, user, body));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
  });
});
