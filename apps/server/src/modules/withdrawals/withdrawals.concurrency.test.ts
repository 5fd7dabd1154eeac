import { createTestApp, errorOf, type TestApp, verifiedCustomer } from '@server-test/helpers';
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestWithdrawal,
  setSetting,
  transactionCount,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
});
afterAll(async () => {
  await t.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

describe('withdrawals under concurrency, on the real database', () => {
  it('50 parallel requests for the whole available balance: exactly one is accepted', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '2');
    // Everything available, less the network fee of 0.0001 BTC.
    const body = { assetId: 'BTC', amount: '1.9999', address: GOOD_ADDRESS.BTC };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => requestWithdrawal(t, user, body)),
    );

    const accepted = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(49);
    for (const res of refused) {
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'INSUFFICIENT_BALANCE',
        message: 'Insufficient balance. You have 0.00000000 BTC available',
      });
    }
    expect(await walletOf(t, user.userId, 'BTC')).toEqual({ balance: '2', held: '2' });
    expect(await transactionCount(t, user.userId)).toBe(2);
    await expectReconciled(t);
  });

  it('parallel requests on two wallets of one customer both respect the daily limit', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'USDT-ERC20', '1000');
    await fund(t, user.userId, 'USDT-TRC20', '1000');
    await setSetting(t, 'max_daily_withdrawal', '600');
    try {
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () =>
          requestWithdrawal(t, user, {
            assetId: 'USDT-ERC20',
            amount: '400',
            address: GOOD_ADDRESS['USDT-ERC20'],
          }),
        ),
        ...Array.from({ length: 5 }, () =>
          requestWithdrawal(t, user, {
            assetId: 'USDT-TRC20',
            amount: '400',
            address: GOOD_ADDRESS['USDT-TRC20'],
          }),
        ),
      ]);
      // $400 fits under $600 once; every other request would pass it.
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      for (const res of answers.filter((a) => a.statusCode !== 200)) {
        expect(errorOf(res).message).toBe(
          'This withdrawal would exceed your daily limit of $600.00. You can withdraw $200.00 more today.',
        );
      }
    } finally {
      await setSetting(t, 'max_daily_withdrawal', '1000000000');
    }
    await expectReconciled(t);
  });
});
