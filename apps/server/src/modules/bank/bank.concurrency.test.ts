import { fromMinor, payoutFunding } from '@coffer/shared';
import { startFakeFeeds } from '@server-test/fake-feeds';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
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
beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  await t.services.prices.refresh(); // 1 AUD = 0.6543 USD, 1 ETH = 3000 USD, USDT 1 USD (fallback)
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
});
afterAll(async () => {
  await t.close();
  await feeds.close();
});
afterEach(async () => {
  await expectReconciled(t);
});

const ACCOUNT = { accountName: 'Ines Moreau', accountNumber: '12345678', bsbNumber: '062000' };

const payout = (user: SignedInUser, assetId: string, amountAud: string) =>
  requestBankTransfer(t, user, { ...ACCOUNT, assetId, amountAud });

/** The USD the customer's payouts in the last 24 hours count for, as the limit counts it. */
async function countedUsd(user: SignedInUser): Promise<string> {
  const res = await call(t, { url: '/api/money/status', cookie: user.cookie });
  return res.json().withdrawnTodayUsd;
}

describe('bank payouts under concurrency, on the real database', () => {
  it('50 parallel payouts for the whole available balance: exactly one is accepted', async () => {
    const user = await verifiedCustomer(t);
    // Exactly what A$1,000 takes at the server's rates: the whole balance.
    const { amount } = payoutFunding('1000', '0.6543', '3000', 18);
    await fund(t, user.userId, 'ETH', fromMinor('ETH', amount));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => payout(user, 'ETH', '1000')),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const res of answers.filter((a) => a.statusCode !== 200)) {
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'INSUFFICIENT_BALANCE',
        message: 'Insufficient balance. You have 0.00000000 ETH available',
      });
    }
    const held = fromMinor('ETH', amount);
    expect(await walletOf(t, user.userId, 'ETH')).toEqual({ balance: held, held });
    expect(await transactionCount(t, user.userId)).toBe(2);
  });

  it('withdrawals and bank payouts racing for one balance never hold more than it', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'USDT-ERC20', '500');
    // Each request is worth about 300 USDT: only one fits in 500.
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () =>
        requestWithdrawal(t, user, {
          assetId: 'USDT-ERC20',
          amount: '300',
          address: GOOD_ADDRESS['USDT-ERC20'],
        }),
      ),
      ...Array.from({ length: 10 }, () => payout(user, 'USDT-ERC20', '458.51')),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const res of answers.filter((a) => a.statusCode !== 200)) {
      expect(errorOf(res).error).toBe('INSUFFICIENT_BALANCE');
    }
    const wallet = await walletOf(t, user.userId, 'USDT-ERC20');
    expect(Number(wallet?.held)).toBeGreaterThanOrEqual(300);
    expect(Number(wallet?.held)).toBeLessThanOrEqual(500);
  });

  it('withdrawals and bank payouts racing for one daily limit never pass it', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'USDT-ERC20', '5000');
    await fund(t, user.userId, 'USDT-TRC20', '5000');
    await setSetting(t, 'max_daily_withdrawal', '1000');
    try {
      // $400 each: two fit under $1,000, a third never does.
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () =>
          requestWithdrawal(t, user, {
            assetId: 'USDT-TRC20',
            amount: '400',
            address: GOOD_ADDRESS['USDT-TRC20'],
          }),
        ),
        // A$611.34 × 0.6543 = $400.00
        ...Array.from({ length: 6 }, () => payout(user, 'USDT-ERC20', '611.34')),
      ]);
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
      for (const res of answers.filter((a) => a.statusCode !== 200)) {
        expect(errorOf(res)).toEqual({
          error: 'LIMIT_EXCEEDED',
          message:
            'This withdrawal would exceed your daily limit of $1,000.00. You can withdraw $200.00 more today.',
        });
      }
      expect(await countedUsd(user)).toBe('800.00');
    } finally {
      await setSetting(t, 'max_daily_withdrawal', '1000000000');
    }
  });
});
