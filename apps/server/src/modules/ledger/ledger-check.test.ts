import { createTestApp, type TestApp, verifiedCustomer } from '@server-test/helpers';
import { fund } from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the ledger check', () => {
  it('finds a wallet out of balance, and reuses a recent result until it is too old', async () => {
    const customer = await verifiedCustomer(t);
    await fund(t, customer.userId, 'BTC', '1');
    const clean = await t.services.ledgerCheck.run();
    expect(clean).toMatchObject({ clean: true, mismatchedWallets: 0 });

    // A change made around the ledger, straight in the database.
    await t.services.pool.query(
      "UPDATE user_wallets SET balance_crypto = balance_crypto + 1 WHERE user_id = $1 AND asset_id = 'BTC'",
      [customer.userId],
    );
    try {
      // Within its age the last result is shown as it was, with its time...
      expect(await t.services.ledgerCheck.recent(60_000)).toBe(clean);
      // ...and a result older than asked for is replaced by a new reconciliation.
      await new Promise((r) => setTimeout(r, 5));
      const now = await t.services.ledgerCheck.recent(1);
      expect(now).toMatchObject({ clean: false, mismatchedWallets: 1 });
      expect(now.checkedAt.getTime()).toBeGreaterThan(clean.checkedAt.getTime());
    } finally {
      await t.services.pool.query(
        "UPDATE user_wallets SET balance_crypto = balance_crypto - 1 WHERE user_id = $1 AND asset_id = 'BTC'",
        [customer.userId],
      );
    }
    expect(await t.services.ledgerCheck.run()).toMatchObject({ clean: true });
  });
});
