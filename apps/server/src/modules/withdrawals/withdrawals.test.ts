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
  transactionCount,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let t: TestApp;
let admin: SignedInUser;
const UNLIMITED = '1000000000';

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  // BTC 65,000.00, ETH 3,000.00, USDT 1.
  await t.services.prices.refresh();
  // Large test amounts: the daily limit has its own test below.
  await setSetting(t, 'max_daily_withdrawal', UNLIMITED);
  admin = await verifiedAdmin(t);
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

/** A verified customer holding `amount` of an asset. */
async function customerWith(assetId: 'BTC' | 'ETH' | 'USDT-ERC20' | 'USDT-TRC20', amount: string) {
  const user = await verifiedCustomer(t);
  await fund(t, user.userId, assetId, amount);
  return user;
}

/**
 * One customer holding 10 of every asset, for the refusals: each changes nothing, so they
 * can share an account (signing up a customer per case only makes the file slower).
 */
let funded: SignedInUser | undefined;
async function wellFunded(): Promise<SignedInUser> {
  if (funded) return funded;
  const user = await verifiedCustomer(t);
  for (const assetId of ['BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20'] as const) {
    await fund(t, user.userId, assetId, '10');
  }
  funded = user;
  return user;
}

describe('a withdrawal request', () => {
  it('holds amount + network fee, pending, valued at the current price', async () => {
    const user = await customerWith('BTC', '1');
    const res = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.5',
      address: `  ${GOOD_ADDRESS.BTC}  `,
      memo: 'rent',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().transaction).toMatchObject({
      type: 'withdrawal',
      direction: 'debit',
      assetId: 'BTC',
      symbol: 'BTC',
      network: 'bitcoin',
      amount: '0.5',
      fee: '0.0001',
      usdAmount: '32500.00',
      status: 'pending',
      withdrawalAddress: GOOD_ADDRESS.BTC,
      memo: 'rent',
      transactionHash: null,
      completedAt: null,
    });
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '1', held: '0.5001' });
    const wallets = await call(t, { url: '/api/wallets', cookie: user.cookie });
    expect(wallets.json().wallets[0]).toMatchObject({
      assetId: 'BTC',
      balance: '1',
      held: '0.5001',
      available: '0.4999',
    });
    await expectReconciled(t);
  });

  it('is refused when amount + fee exceed the available balance, with the spec message', async () => {
    const user = await customerWith('BTC', '1');
    const res = await withoutChange(t, () =>
      requestWithdrawal(t, user, { assetId: 'BTC', amount: '1', address: GOOD_ADDRESS.BTC }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({
      error: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. You have 1.00000000 BTC available',
    });
    // Exactly the balance minus the fee (what Max fills in) is allowed; no memo is needed on
    // a network that has none.
    const ok = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.9999',
      address: GOOD_ADDRESS.BTC,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().transaction).toMatchObject({ amount: '0.9999', fee: '0.0001', memo: null });
    // A pending hold counts: nothing more is available.
    const more = await withoutChange(t, () =>
      requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '0.00000001',
        address: GOOD_ADDRESS.BTC,
      }),
    );
    expect(errorOf(more).message).toBe('Insufficient balance. You have 0.00000000 BTC available');
    await expectReconciled(t);
  });

  it('checks funds before the address', async () => {
    const user = await customerWith('ETH', '0.001');
    const res = await withoutChange(t, () =>
      requestWithdrawal(t, user, { assetId: 'ETH', amount: '1', address: '0x1234' }),
    );
    expect(errorOf(res)).toEqual({
      error: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance. You have 0.00100000 ETH available',
    });
  });

  it.each([
    [
      'a wrong EIP-55 checksum',
      'ETH',
      '0x5aAeb6053f3E94C9b9A09f33669435E7Ef1BeAed',
      'Invalid Ethereum address checksum. Check the address and try again.',
    ],
    [
      'a bech32 typo',
      'BTC',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
      'Invalid Bitcoin address checksum. Check the address and try again.',
    ],
    [
      'a Tron address on the ERC-20 wallet',
      'USDT-ERC20',
      GOOD_ADDRESS['USDT-TRC20'],
      'Invalid Ethereum address format',
    ],
    [
      'an Ethereum address on the TRC-20 wallet',
      'USDT-TRC20',
      GOOD_ADDRESS['USDT-ERC20'],
      'Invalid Tron address format',
    ],
  ] as const)(
    'refuses %s with the checker message and holds nothing',
    async (_what, assetId, address, message) => {
      const user = await wellFunded();
      const res = await withoutChange(t, () =>
        requestWithdrawal(t, user, { assetId, amount: '1', address }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
      expect((await walletOf(t, user.userId, assetId))?.held).toBe('0');
    },
  );

  it.each([
    ['no asset', { amount: '1', address: GOOD_ADDRESS.BTC }, 'Please select a cryptocurrency'],
    [
      'an unknown asset',
      { assetId: 'DOGE', amount: '1', address: 'x' },
      'Please select a cryptocurrency',
    ],
    [
      'an admin-only asset',
      { assetId: 'USDC', amount: '1', address: 'x' },
      'Please select a cryptocurrency',
    ],
    [
      'a zero amount',
      { assetId: 'BTC', amount: '0', address: GOOD_ADDRESS.BTC },
      'Amount must be greater than 0',
    ],
    [
      'a negative amount',
      { assetId: 'BTC', amount: '-1', address: GOOD_ADDRESS.BTC },
      'Amount cannot be negative',
    ],
    [
      'an amount as a JSON number',
      { assetId: 'BTC', amount: 1, address: GOOD_ADDRESS.BTC },
      'Amount must be greater than 0',
    ],
    [
      'no address',
      { assetId: 'BTC', amount: '0.1', address: '  ' },
      'Withdrawal address is required',
    ],
    [
      '9 decimals on BTC',
      { assetId: 'BTC', amount: '0.000000001', address: GOOD_ADDRESS.BTC },
      'Amount can have at most 8 decimal places for BTC',
    ],
    [
      '7 decimals on USDT',
      { assetId: 'USDT-TRC20', amount: '1.0000001', address: GOOD_ADDRESS['USDT-TRC20'] },
      'Amount can have at most 6 decimal places for USDT',
    ],
  ])('refuses %s with the shared message', async (_what, body, message) => {
    const user = await wellFunded();
    const res = await withoutChange(t, () => requestWithdrawal(t, user, body));
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toEqual({ error: 'VALIDATION_FAILED', message });
  });

  it('accepts ETH to the wei (18 decimals), exactly', async () => {
    const user = await customerWith('ETH', '1.000000000000000001');
    const res = await requestWithdrawal(t, user, {
      assetId: 'ETH',
      amount: '0.123456789012345678',
      address: GOOD_ADDRESS.ETH,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().transaction).toMatchObject({ amount: '0.123456789012345678', fee: '0.002' });
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({
      balance: '1.000000000000000001',
      held: '0.125456789012345678',
    });
    await expectReconciled(t);
  });
});

describe('staff processing a withdrawal', () => {
  async function pendingWithdrawal() {
    const user = await customerWith('BTC', '1');
    const res = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.25',
      address: GOOD_ADDRESS.BTC,
    });
    expect(res.statusCode).toBe(200);
    return { user, id: res.json().transaction.id as string };
  }

  it('completes it: the hold becomes a debit, the hash is recorded, the customer is told', async () => {
    const { user, id } = await pendingWithdrawal();
    const hash = 'a1'.repeat(32);
    const done = await t.services.withdrawals.complete(id, {
      transactionHash: hash,
      processedBy: admin.userId,
    });
    expect(done).toMatchObject({ id, status: 'completed', transactionHash: hash });
    expect(done.completedAt).not.toBeNull();
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '0.7499', held: '0' });
    const { rows } = await t.services.pool.query(
      'SELECT processed_by FROM transactions WHERE id = $1',
      [id],
    );
    expect(rows[0].processed_by).toBe(admin.userId);
    const mail = mailsTo(t, user.email).at(-1) ?? '';
    expect(mail).toContain('Your withdrawal has been sent');
    expect(mail).toContain(hash);
    const history = await call(t, { url: '/api/transactions', cookie: user.cookie });
    expect(history.json().items[0]).toMatchObject({
      id,
      status: 'completed',
      transactionHash: hash,
    });
    await expectReconciled(t);
  });

  it('rejects it: the hold is released and the customer sees the reason', async () => {
    const { user, id } = await pendingWithdrawal();
    const rejected = await t.services.withdrawals.reject(id, {
      reason: 'The address belongs to a sanctioned service.',
      processedBy: admin.userId,
    });
    expect(rejected).toMatchObject({
      id,
      status: 'failed',
      reason: 'The address belongs to a sanctioned service.',
    });
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '1', held: '0' });
    // Quoted-printable soft line breaks undone.
    const mail = (mailsTo(t, user.email).at(-1) ?? '').replace(/=\r?\n/g, '');
    expect(mail).toContain('Subject: Your withdrawal was rejected');
    expect(mail).not.toMatch(/failed/i);
    expect(mail).toContain('The address belongs to a sanctioned service.');
    expect(mail).toContain('0.2501 BTC');
    const history = await call(t, { url: '/api/transactions', cookie: user.cookie });
    expect(history.json().items[0]).toMatchObject({
      id,
      status: 'failed',
      reason: 'The address belongs to a sanctioned service.',
    });
    await expectReconciled(t);
  });

  it('refuses to complete or reject twice, to complete a rejected one, and unknown ids', async () => {
    const completed = await pendingWithdrawal();
    await t.services.withdrawals.complete(completed.id, {
      transactionHash: 'b1'.repeat(32),
      processedBy: admin.userId,
    });
    const rejected = await pendingWithdrawal();
    await t.services.withdrawals.reject(rejected.id, { reason: 'no', processedBy: admin.userId });

    const attempts: Array<[() => Promise<unknown>, string, string]> = [
      [
        () =>
          t.services.withdrawals.complete(completed.id, {
            transactionHash: 'b2'.repeat(32),
            processedBy: admin.userId,
          }),
        'CONFLICT',
        'This withdrawal was already completed.',
      ],
      [
        () =>
          t.services.withdrawals.reject(completed.id, {
            reason: 'late',
            processedBy: admin.userId,
          }),
        'CONFLICT',
        'This withdrawal was already completed.',
      ],
      [
        () =>
          t.services.withdrawals.complete(rejected.id, {
            transactionHash: 'h3',
            processedBy: admin.userId,
          }),
        'CONFLICT',
        'This withdrawal was already rejected.',
      ],
      [
        () =>
          t.services.withdrawals.reject(rejected.id, {
            reason: 'again',
            processedBy: admin.userId,
          }),
        'CONFLICT',
        'This withdrawal was already rejected.',
      ],
      [
        () =>
          t.services.withdrawals.complete('00000000-0000-4000-8000-000000000000', {
            transactionHash: 'h4',
            processedBy: admin.userId,
          }),
        'NOT_FOUND',
        'Withdrawal not found.',
      ],
      [
        () =>
          t.services.withdrawals.complete('not-a-uuid', {
            transactionHash: 'h5',
            processedBy: admin.userId,
          }),
        'NOT_FOUND',
        'Withdrawal not found.',
      ],
    ];
    for (const [attempt, code, message] of attempts) {
      const err = await withoutChange(t, () =>
        attempt().then(
          () => null,
          (e: unknown) => e,
        ),
      );
      expect(err).toMatchObject({ code, message });
    }
    await expectReconciled(t);
  });

  it('requires a hash of the network to complete and a reason to reject', async () => {
    const { id } = await pendingWithdrawal();
    for (const [transactionHash, message] of [
      ['  ', 'Enter the transaction hash of the payout.'],
      ['hello', 'Enter the transaction hash: 64 hexadecimal characters.'],
      [`0x${'a1'.repeat(31)}`, 'Enter the transaction hash: 64 hexadecimal characters.'],
      ['g'.repeat(64), 'Enter the transaction hash: 64 hexadecimal characters.'],
    ]) {
      const noHash = await withoutChange(t, () =>
        t.services.withdrawals
          .complete(id, { transactionHash: transactionHash ?? '', processedBy: admin.userId })
          .catch((e: unknown) => e),
      );
      expect(noHash).toMatchObject({ code: 'VALIDATION_FAILED', message });
    }
    const noReason = await withoutChange(t, () =>
      t.services.withdrawals
        .reject(id, { reason: '', processedBy: admin.userId })
        .catch((e: unknown) => e),
    );
    expect(noReason).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('does not complete a deposit as if it were a withdrawal', async () => {
    const user = await verifiedCustomer(t);
    const deposit = await fund(t, user.userId, 'BTC', '1');
    const err = await withoutChange(t, () =>
      t.services.withdrawals
        .complete(deposit.id, { transactionHash: 'x', processedBy: admin.userId })
        .catch((e: unknown) => e),
    );
    expect(err).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the Idempotency-Key header', () => {
  it('answers a repeat with the first result and moves the money once', async () => {
    const user = await customerWith('BTC', '1');
    const body = { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC };
    const first = await requestWithdrawal(t, user, body, 'key-1');
    const again = await requestWithdrawal(t, user, body, 'key-1');
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await transactionCount(t, user.userId)).toBe(2); // the deposit and one withdrawal
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '1', held: '0.1001' });
    // Another key is another request.
    const other = await requestWithdrawal(t, user, body, 'key-2');
    expect(other.json().transaction.id).not.toBe(first.json().transaction.id);
    await expectReconciled(t);
  });

  it('keeps each customer’s keys apart', async () => {
    const a = await customerWith('BTC', '1');
    const b = await customerWith('BTC', '1');
    const body = { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC };
    const first = await requestWithdrawal(t, a, body, 'shared-key');
    const second = await requestWithdrawal(t, b, { ...body, amount: '0.2' }, 'shared-key');
    expect(second.statusCode).toBe(200);
    expect(second.json().transaction.id).not.toBe(first.json().transaction.id);
    expect(await walletOf(t, b.userId, 'BTC')).toEqual({ balance: '1', held: '0.2001' });
  });

  it('refuses the same key with another body', async () => {
    const user = await customerWith('BTC', '1');
    await requestWithdrawal(
      t,
      user,
      { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC },
      'key-x',
    );
    const res = await withoutChange(t, () =>
      requestWithdrawal(
        t,
        user,
        { assetId: 'BTC', amount: '0.2', address: GOOD_ADDRESS.BTC },
        'key-x',
      ),
    );
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toEqual({
      error: 'IDEMPOTENCY_CONFLICT',
      message: 'This Idempotency-Key was already used for a different request.',
    });
  });

  it('lets a refused request be retried with its key once it can succeed', async () => {
    const user = await customerWith('BTC', '0.1');
    const body = { assetId: 'BTC', amount: '0.5', address: GOOD_ADDRESS.BTC };
    expect((await requestWithdrawal(t, user, body, 'retry')).statusCode).toBe(400);
    await fund(t, user.userId, 'BTC', '1');
    expect((await requestWithdrawal(t, user, body, 'retry')).statusCode).toBe(200);
  });

  it('runs parallel repeats of one key exactly once', async () => {
    const user = await customerWith('BTC', '1');
    const body = { assetId: 'BTC', amount: '0.3', address: GOOD_ADDRESS.BTC };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => requestWithdrawal(t, user, body, 'parallel-key')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.json().transaction.id)).size).toBe(1);
    expect(await transactionCount(t, user.userId)).toBe(2);
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '1', held: '0.3001' });
    await expectReconciled(t);
  });

  it('applies to bank transfers too', async () => {
    const user = await customerWith('BTC', '1');
    const body = {
      accountName: 'Ann Lee',
      accountNumber: '12345678',
      bsbNumber: '062000',
      amountAud: '100',
      assetId: 'BTC',
    };
    // Each retry carries a fresh code, as a customer typing one again would: the key
    // stands for the request without it.
    const send = (key: string, b = body) => requestBankTransfer(t, user, b, key);
    const first = await send('bank-1');
    const again = await send('bank-1');
    expect(again.json()).toEqual(first.json());
    // The deposit that funds it, and one payout.
    expect(await transactionCount(t, user.userId)).toBe(2);
    expect((await send('bank-1', { ...body, amountAud: '200' })).statusCode).toBe(409);
  });
});

describe('limits and switches (product.md M10)', () => {
  it('refuses withdrawals and bank transfers while withdrawals are turned off', async () => {
    const user = await customerWith('BTC', '1');
    await setSetting(t, 'withdrawals_enabled', 'false');
    try {
      const w = await withoutChange(t, () =>
        requestWithdrawal(t, user, { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC }),
      );
      const b = await withoutChange(t, () =>
        requestBankTransfer(t, user, {
          accountName: 'A',
          accountNumber: '12345678',
          bsbNumber: '062000',
          amountAud: '5',
          assetId: 'BTC',
        }),
      );
      for (const res of [w, b]) {
        expect(res.statusCode).toBe(403);
        expect(errorOf(res)).toEqual({
          error: 'SERVICE_DISABLED',
          message:
            'Withdrawals and bank transfers are turned off at the moment. Please try again later or contact support.',
        });
      }
      const status = await call(t, { url: '/api/money/status', cookie: user.cookie });
      expect(status.json().withdrawalsEnabled).toBe(false);
    } finally {
      await setSetting(t, 'withdrawals_enabled', 'true');
    }
    const ok = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.1',
      address: GOOD_ADDRESS.BTC,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses customer money actions in maintenance mode, while staff deposits still book', async () => {
    const user = await customerWith('BTC', '1');
    await setSetting(t, 'maintenance_mode', 'true');
    try {
      const w = await withoutChange(t, () =>
        requestWithdrawal(t, user, { assetId: 'BTC', amount: '0.1', address: GOOD_ADDRESS.BTC }),
      );
      const b = await withoutChange(t, () =>
        requestBankTransfer(t, user, {
          accountName: 'A',
          accountNumber: '12345678',
          bsbNumber: '062000',
          amountAud: '5',
          assetId: 'BTC',
        }),
      );
      for (const res of [w, b]) {
        expect(res.statusCode).toBe(403);
        expect(errorOf(res)).toEqual({
          error: 'SERVICE_DISABLED',
          message:
            'Coffer is undergoing maintenance. Withdrawals and bank transfers are paused; please try again later.',
        });
      }
      const credited = await t.services.deposits.credit({
        email: user.email,
        assetId: 'BTC',
        amount: 50_000_000n,
        transactionHash: 'b2'.repeat(32),
      });
      expect(credited).toMatchObject({ outcome: 'credited', balance: '1.5' });
      expect(
        (await call(t, { url: '/api/money/status', cookie: user.cookie })).json().maintenanceMode,
      ).toBe(true);
    } finally {
      await setSetting(t, 'maintenance_mode', 'false');
    }
    await expectReconciled(t);
  });

  it('checks switches before funds', async () => {
    const user = await verifiedCustomer(t);
    await setSetting(t, 'maintenance_mode', 'true');
    try {
      const res = await requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '5',
        address: GOOD_ADDRESS.BTC,
      });
      expect(errorOf(res).error).toBe('SERVICE_DISABLED');
    } finally {
      await setSetting(t, 'maintenance_mode', 'false');
    }
  });

  it('holds each customer to the rolling 24-hour limit, saying how much is left', async () => {
    const user = await customerWith('BTC', '1');
    const other = await customerWith('BTC', '1');
    await setSetting(t, 'max_daily_withdrawal', '1000');
    try {
      // 0.01 BTC at 65,000 = $650.
      const first = await requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '0.01',
        address: GOOD_ADDRESS.BTC,
      });
      expect(first.statusCode).toBe(200);
      const second = await withoutChange(t, () =>
        requestWithdrawal(t, user, { assetId: 'BTC', amount: '0.01', address: GOOD_ADDRESS.BTC }),
      );
      expect(second.statusCode).toBe(400);
      expect(errorOf(second)).toEqual({
        error: 'LIMIT_EXCEEDED',
        message:
          'This withdrawal would exceed your daily limit of $1,000.00. You can withdraw $350.00 more today.',
      });
      expect((await call(t, { url: '/api/money/status', cookie: user.cookie })).json()).toEqual({
        depositsEnabled: true,
        withdrawalsEnabled: true,
        maintenanceMode: false,
        maxDailyWithdrawalUsd: '1000.00',
        withdrawnTodayUsd: '650.00',
        remainingTodayUsd: '350.00',
        bankStatementDescriptor: 'COFFER CUSTODY',
        bitcoinNetwork: 'mainnet',
      });
      // Up to the limit exactly is fine ($350 = 0.00538461 BTC at most; 0.005 = $325).
      const fits = await requestWithdrawal(t, user, {
        assetId: 'BTC',
        amount: '0.005',
        address: GOOD_ADDRESS.BTC,
      });
      expect(fits.statusCode).toBe(200);
      // The limit is per customer.
      const theirs = await requestWithdrawal(t, other, {
        assetId: 'BTC',
        amount: '0.015',
        address: GOOD_ADDRESS.BTC,
      });
      expect(theirs.statusCode).toBe(200);
      // A rejected withdrawal gives its share back.
      await t.services.withdrawals.reject(first.json().transaction.id, {
        reason: 'r',
        processedBy: admin.userId,
      });
      const after = await call(t, { url: '/api/money/status', cookie: user.cookie });
      expect(after.json()).toMatchObject({
        withdrawnTodayUsd: '325.00',
        remainingTodayUsd: '675.00',
      });
      // Older than 24 hours no longer counts. (Only the pending ones are moved back: a
      // rejected payout is final, and the database refuses to rewrite it.)
      await t.services.pool.query(
        "UPDATE transactions SET transaction_date = now() - interval '25 hours' WHERE user_id = $1 AND transaction_type = 'withdrawal' AND status = 'pending'",
        [user.userId],
      );
      expect(
        (await call(t, { url: '/api/money/status', cookie: user.cookie })).json().withdrawnTodayUsd,
      ).toBe('0.00');
    } finally {
      await setSetting(t, 'max_daily_withdrawal', UNLIMITED);
    }
    await expectReconciled(t);
  });

  it('reads an unreadable daily limit as no allowance at all', async () => {
    const user = await customerWith('BTC', '1');
    await setSetting(t, 'max_daily_withdrawal', 'plenty');
    try {
      const res = await withoutChange(t, () =>
        requestWithdrawal(t, user, { assetId: 'BTC', amount: '0.001', address: GOOD_ADDRESS.BTC }),
      );
      expect(errorOf(res)).toEqual({
        error: 'LIMIT_EXCEEDED',
        message:
          'This withdrawal would exceed your daily limit of $0.00. You can withdraw $0.00 more today.',
      });
    } finally {
      await setSetting(t, 'max_daily_withdrawal', UNLIMITED);
    }
  });
});

describe('access', () => {
  it('refuses visitors and sessions that have not passed 2FA on every money route', async () => {
    const routes: Array<{ method: 'GET' | 'POST' | 'PUT'; url: string; body?: unknown }> = [
      { method: 'GET', url: '/api/wallets' },
      { method: 'GET', url: '/api/portfolio/history?range=7d' },
      { method: 'GET', url: '/api/money/status' },
      { method: 'GET', url: '/api/deposit-addresses' },
      {
        method: 'POST',
        url: '/api/withdrawals',
        body: { assetId: 'BTC', amount: '1', address: GOOD_ADDRESS.BTC },
      },
      { method: 'GET', url: '/api/transactions' },
      { method: 'GET', url: '/api/transactions/export.csv' },
      { method: 'POST', url: '/api/bank-transfers', body: {} },
      { method: 'GET', url: '/api/bank-details' },
      { method: 'PUT', url: '/api/bank-details', body: {} },
    ];
    const { signUpAndSignIn } = await import('@server-test/helpers');
    const halfway = await signUpAndSignIn(t);
    for (const route of routes) {
      const anonymous = await withoutChange(t, () => call(t, route));
      expect([route.url, anonymous.statusCode, errorOf(anonymous).error]).toEqual([
        route.url,
        401,
        'UNAUTHENTICATED',
      ]);
      const unverified = await withoutChange(t, () =>
        call(t, { ...route, cookie: halfway.cookie }),
      );
      expect([route.url, unverified.statusCode, errorOf(unverified).error]).toEqual([
        route.url,
        403,
        'TWO_FACTOR_REQUIRED',
      ]);
    }
  });
});
