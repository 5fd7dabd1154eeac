import { randomBytes } from 'node:crypto';
import { type TAnyAssetId, type TAssetId, toMinor } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { createTestApp, type TestApp } from '@server-test/helpers';
import { expectReconciled, fund, walletOf } from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PostInput, Revision, TransactionRow } from '.';

/**
 * The ledger on its own, through its front door: every transaction type and status
 * transition, holds, reversals, the refusals, and reconciliation after each test.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await expectReconciled(t);
});

const ledger = () => t.services.ledger;

/** A customer row, without the sign-up journey: the ledger needs only someone to own wallets. */
async function customer(): Promise<string> {
  const user = await t.services.users.create({
    email: `ledger-${randomBytes(5).toString('hex')}@example.com`,
    passwordHash: 'not-a-real-hash',
    verified: true,
  });
  if (!user) throw new Error('no user');
  return user.id;
}

const btcHash = () => randomBytes(32).toString('hex');

function post(input: Omit<PostInput, 'createdBy'> & { createdBy?: string | null }) {
  return withTransaction(t.services.pool, (client) =>
    ledger().post(client, { createdBy: null, ...input }),
  );
}

/** A completed deposit, as the chain watcher posts one. */
const credit = (userId: string, assetId: TAssetId, amount: string) =>
  fund(t, userId, assetId, amount);

const withdrawal = (userId: string, amount: string, fee = '0.0001') =>
  post({
    userId,
    assetId: 'BTC',
    type: 'withdrawal',
    direction: 'debit',
    amount: toMinor('BTC', amount),
    fee: toMinor('BTC', fee),
    status: 'pending',
    withdrawalAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    createdBy: userId,
  });

const changeStatus = (id: string, next: 'completed' | 'failed', hash?: string) =>
  withTransaction(t.services.pool, (client) =>
    ledger().changeStatus(client, id, next, {
      transactionHash: hash ?? null,
      reason: next === 'failed' ? 'Address on a sanctions list' : null,
      processedBy: null,
    }),
  );

const revise = (id: string, next: Revision) =>
  withTransaction(t.services.pool, (client) => ledger().revise(client, id, next));

const remove = (id: string) =>
  withTransaction(t.services.pool, (client) => ledger().remove(client, id, null));

/** A revision that leaves `row` as it is, with `change` on top. */
function revisionOf(row: TransactionRow, change: Partial<Revision>): Revision {
  return {
    type: row.transaction_type,
    direction: row.direction,
    assetId: row.asset_id,
    amount: toMinor(row.asset_id as TAnyAssetId, row.crypto_amount.replace(/\.?0+$/, '')),
    usdAmount: row.usd_amount,
    audAmount: row.aud_amount,
    currency: row.currency,
    status: row.status,
    transactionDate: row.transaction_date,
    withdrawalAddress: row.withdrawal_address,
    transactionHash: row.transaction_hash,
    updatedBy: null,
    ...change,
  };
}

async function rowsOf(userId: string) {
  const { rows } = await t.services.pool.query(
    'SELECT * FROM transactions WHERE user_id = $1 ORDER BY transaction_date, id',
    [userId],
  );
  return rows;
}

/** Runs a refused ledger call: the code it is refused with, and proof that nothing changed. */
async function refused(userId: string, act: () => Promise<unknown>): Promise<string> {
  const before = { rows: await rowsOf(userId), btc: await walletOf(t, userId, 'BTC') };
  const err = await act().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect({ rows: await rowsOf(userId), btc: await walletOf(t, userId, 'BTC') }).toEqual(before);
  return err instanceof AppError ? err.code : '';
}

describe('posting', () => {
  it('a completed credit adds to the balance, a pending one waits', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1.5');
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '1.5', held: '0' });
    const pending = await post({
      userId: user,
      assetId: 'BTC',
      type: 'deposit',
      direction: 'credit',
      amount: toMinor('BTC', '2'),
      status: 'pending',
    });
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '1.5', held: '0' });
    await changeStatus(pending.id, 'completed');
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '3.5', held: '0' });
  });

  it.each([
    ['deposit', 'credit'],
    ['staking_reward', 'credit'],
    ['adjustment', 'credit'],
    ['buy', 'credit'],
    ['others', 'credit'],
    ['adjustment', 'debit'],
    ['sell', 'debit'],
    ['others', 'debit'],
    ['withdrawal', 'debit'],
    ['bank_transfer', 'debit'],
  ] as const)('a completed %s %s moves the balance by its amount', async (type, direction) => {
    const user = await customer();
    await credit(user, 'ETH', '10');
    await post({
      userId: user,
      assetId: 'ETH',
      type,
      direction,
      amount: toMinor('ETH', '0.25'),
      status: 'completed',
      ...(type === 'staking_reward' ? { stakingCycleStart: new Date() } : {}),
    });
    expect(await walletOf(t, user, 'ETH')).toEqual({
      balance: direction === 'credit' ? '10.25' : '9.75',
      held: '0',
    });
  });

  it('a pending withdrawal holds amount + fee; completing debits it, rejecting releases it', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    const paid = await withdrawal(user, '0.3');
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '1', held: '0.3001' });
    const back = await withdrawal(user, '0.2');
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '1', held: '0.5002' });

    await changeStatus(paid.id, 'completed', `0x${'AB'.repeat(32)}`);
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '0.6999', held: '0.2001' });
    await changeStatus(back.id, 'failed');
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '0.6999', held: '0' });
  });

  it('a pending bank payout holds its crypto amount and keeps its rates', async () => {
    const user = await customer();
    await credit(user, 'ETH', '1');
    const row = await post({
      userId: user,
      assetId: 'ETH',
      type: 'bank_transfer',
      direction: 'debit',
      amount: toMinor('ETH', '0.05'),
      status: 'pending',
      usdAmount: '163.90',
      audAmount: '250.50',
      currency: 'AUD',
      exchangeRate: '0.6543',
      priceUsd: '3278',
      createdBy: user,
    });
    expect(row).toMatchObject({
      currency: 'AUD',
      direction: 'debit',
      wallet_id: expect.any(String),
    });
    expect(Number(row.exchange_rate)).toBe(0.6543);
    expect(Number(row.price_usd)).toBe(3278);
    expect(await walletOf(t, user, 'ETH')).toEqual({ balance: '1', held: '0.05' });
    await changeStatus(row.id, 'completed', 'WBC-2026-000123');
    expect(await walletOf(t, user, 'ETH')).toEqual({ balance: '0.95', held: '0' });
  });

  it('refuses a debit past what is available, and a zero amount, writing nothing', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    await withdrawal(user, '0.5');
    expect(await refused(user, () => withdrawal(user, '0.5'))).toBe('INSUFFICIENT_BALANCE');
    expect(
      await refused(user, () =>
        post({
          userId: user,
          assetId: 'BTC',
          type: 'sell',
          direction: 'debit',
          amount: toMinor('BTC', '0.5'),
          status: 'completed',
        }),
      ),
    ).toBe('INSUFFICIENT_BALANCE');
    expect(
      await refused(user, () =>
        post({
          userId: user,
          assetId: 'BTC',
          type: 'deposit',
          direction: 'credit',
          amount: 0n,
          status: 'completed',
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });

  it('refuses a credit that would take a balance past what the column holds', async () => {
    const user = await customer();
    await credit(user, 'USDT-ERC20', '99999999999999999999');
    const before = await walletOf(t, user, 'USDT-ERC20');
    const err = await credit(user, 'USDT-ERC20', '1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(
      'This is more USDT than a wallet can hold. Check the amount.',
    );
    expect(await walletOf(t, user, 'USDT-ERC20')).toEqual(before);
    // Money that fits still moves: the wallet is not stuck.
    await post({
      userId: user,
      assetId: 'USDT-ERC20',
      type: 'sell',
      direction: 'debit',
      amount: toMinor('USDT-ERC20', '1'),
      status: 'completed',
    });
    expect(await walletOf(t, user, 'USDT-ERC20')).toEqual({
      balance: '99999999999999999998',
      held: '0',
    });
  });

  it('refuses a USD figure too large for its column', async () => {
    const user = await customer();
    expect(
      await refused(user, () =>
        post({
          userId: user,
          assetId: 'BTC',
          type: 'deposit',
          direction: 'credit',
          amount: toMinor('BTC', '1'),
          status: 'completed',
          usdAmount: '1000000000000000000.00',
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });

  it('posts on the wallet the caller locked, once, and never on another', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    const other = await customer();
    await withTransaction(t.services.pool, async (client) => {
      const wallet = await ledger().lockWallet(client, user, 'BTC');
      expect(wallet.available).toBe(toMinor('BTC', '1'));
      await expect(
        ledger().post(
          client,
          {
            userId: other,
            assetId: 'BTC',
            type: 'deposit',
            direction: 'credit',
            amount: 1n,
            status: 'completed',
            createdBy: null,
          },
          { wallet },
        ),
      ).rejects.toThrow('not this row');
    });
    expect(await walletOf(t, other, 'BTC')).toEqual({ balance: '0', held: '0' });
  });
});

describe('chain transaction hashes', () => {
  it('keeps one form per network and credits one chain transaction once', async () => {
    const user = await customer();
    const hex = randomBytes(32).toString('hex');
    const eth = await post({
      userId: user,
      assetId: 'ETH',
      type: 'deposit',
      direction: 'credit',
      amount: toMinor('ETH', '1'),
      status: 'completed',
      transactionHash: hex.toUpperCase(),
    });
    expect(eth.transaction_hash).toBe(`0x${hex}`);
    const btc = await post({
      userId: user,
      assetId: 'BTC',
      type: 'deposit',
      direction: 'credit',
      amount: toMinor('BTC', '1'),
      status: 'completed',
      transactionHash: `0x${hex.toUpperCase()}`,
    });
    expect(btc.transaction_hash).toBe(hex);

    for (const variant of [`0x${hex}`, hex, `0X${hex.toUpperCase()}`]) {
      const err = await post({
        userId: user,
        assetId: 'ETH',
        type: 'deposit',
        direction: 'credit',
        amount: toMinor('ETH', '1'),
        status: 'completed',
        transactionHash: variant,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('CONFLICT');
    }
    expect(await walletOf(t, user, 'ETH')).toEqual({ balance: '1', held: '0' });
  });

  it('refuses a hash that is not one', async () => {
    const user = await customer();
    for (const hash of ['hello', 'ab'.repeat(31), `0x${'g'.repeat(64)}`]) {
      expect(
        await refused(user, () =>
          post({
            userId: user,
            assetId: 'BTC',
            type: 'deposit',
            direction: 'credit',
            amount: 1n,
            status: 'completed',
            transactionHash: hash,
          }),
        ),
      ).toBe('VALIDATION_FAILED');
    }
  });
});

describe('revisions and removals', () => {
  it('an edit reverses the old effect and applies the new one, on each wallet involved', async () => {
    const user = await customer();
    const row = await credit(user, 'BTC', '1');
    await revise(row.id, revisionOf(row, { amount: toMinor('BTC', '0.4') }));
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '0.4', held: '0' });
    const moved = await revise(
      row.id,
      revisionOf(row, { assetId: 'ETH', amount: toMinor('ETH', '2') }),
    );
    expect(moved.after.asset_id).toBe('ETH');
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '0', held: '0' });
    expect(await walletOf(t, user, 'ETH')).toEqual({ balance: '2', held: '0' });
  });

  it('keeps every editor, and an edit never drops the reference', async () => {
    const user = await customer();
    const [a, b] = [await customer(), await customer()];
    const row = await credit(user, 'BTC', '1');
    await revise(row.id, revisionOf(row, { amount: toMinor('BTC', '2'), updatedBy: a }));
    await revise(row.id, revisionOf(row, { amount: toMinor('BTC', '3'), updatedBy: b }));
    const last = await revise(
      row.id,
      revisionOf(row, { amount: toMinor('BTC', '4'), updatedBy: a, transactionHash: '' }),
    );
    expect(last.after.editor_ids).toEqual([a, b]);
    expect(last.after.updated_by).toBe(a);
    expect(last.after.transaction_hash).toBe(row.transaction_hash);
  });

  it('refuses an edit or a removal that would leave less than nothing available', async () => {
    const user = await customer();
    const row = await credit(user, 'BTC', '1');
    await withdrawal(user, '0.9');
    expect(
      await refused(user, () => revise(row.id, revisionOf(row, { amount: toMinor('BTC', '0.5') }))),
    ).toBe('INSUFFICIENT_BALANCE');
    expect(await refused(user, () => remove(row.id))).toBe('INSUFFICIENT_BALANCE');
  });

  it('a removal marks the row deleted and reverses its effect', async () => {
    const user = await customer();
    const row = await credit(user, 'BTC', '1');
    const change = await remove(row.id);
    expect(change.after.deleted_at).not.toBeNull();
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '0', held: '0' });
    expect(await refused(user, () => remove(row.id))).toBe('NOT_FOUND');
  });

  it('a pending payout stays a payout, funded as it was', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    const row = await withdrawal(user, '0.1');
    expect(
      await refused(user, () =>
        revise(row.id, revisionOf(row, { type: 'sell', status: 'completed' })),
      ),
    ).toBe('CONFLICT');
    const deposit = await credit(user, 'BTC', '1');
    expect(
      await refused(user, () =>
        revise(deposit.id, revisionOf(deposit, { type: 'withdrawal', direction: 'debit' })),
      ),
    ).toBe('CONFLICT');
  });

  it('a completed or rejected payout is final: no status change, edit or removal', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    const paid = await withdrawal(user, '0.1');
    await changeStatus(paid.id, 'completed', btcHash());
    const back = await withdrawal(user, '0.1');
    await changeStatus(back.id, 'failed');
    for (const row of [paid, back]) {
      const now = (await rowsOf(user)).find((r) => r.id === row.id);
      expect(await refused(user, () => changeStatus(row.id, 'completed', btcHash()))).toBe(
        'CONFLICT',
      );
      expect(await refused(user, () => changeStatus(row.id, 'failed'))).toBe('CONFLICT');
      expect(
        await refused(user, () =>
          revise(row.id, revisionOf(now, { amount: toMinor('BTC', '0.9'), status: 'pending' })),
        ),
      ).toBe('CONFLICT');
      expect(await refused(user, () => remove(row.id))).toBe('CONFLICT');
    }
  });

  it('an adjustment is final: corrected by a reversing adjustment, never edited or removed', async () => {
    const user = await customer();
    const row = await post({
      userId: user,
      assetId: 'BTC',
      type: 'adjustment',
      direction: 'credit',
      amount: toMinor('BTC', '0.5'),
      status: 'completed',
      reason: 'Goodwill credit',
    });
    expect(
      await refused(user, () => revise(row.id, revisionOf(row, { amount: toMinor('BTC', '5') }))),
    ).toBe('CONFLICT');
    expect(await refused(user, () => remove(row.id))).toBe('CONFLICT');
    await post({
      userId: user,
      assetId: 'BTC',
      type: 'adjustment',
      direction: 'debit',
      amount: toMinor('BTC', '0.5'),
      status: 'completed',
      reason: 'Reverses the goodwill credit',
    });
    expect(await walletOf(t, user, 'BTC')).toEqual({ balance: '0', held: '0' });
  });

  it('the database itself refuses to rewrite a final payout or an adjustment', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    const paid = await withdrawal(user, '0.1');
    await changeStatus(paid.id, 'completed', btcHash());
    const adjustment = await post({
      userId: user,
      assetId: 'BTC',
      type: 'adjustment',
      direction: 'credit',
      amount: 1n,
      status: 'completed',
    });
    const before = await rowsOf(user);
    for (const sql of [
      `UPDATE transactions SET crypto_amount = 0.9 WHERE id = '${paid.id}'`,
      `UPDATE transactions SET status = 'pending' WHERE id = '${paid.id}'`,
      `UPDATE transactions SET deleted_at = now() WHERE id = '${adjustment.id}'`,
    ]) {
      await expect(t.services.pool.query(sql)).rejects.toThrow(/is final/);
    }
    expect(await rowsOf(user)).toEqual(before);
  });
});

describe('reconciliation', () => {
  it('names a wallet whose balance is not the sum of its rows', async () => {
    const user = await customer();
    await credit(user, 'BTC', '1');
    expect(await ledger().reconcile(t.services.pool)).toEqual([]);
    await t.services.pool.query(
      "UPDATE user_wallets SET balance_crypto = balance_crypto + 1 WHERE user_id = $1 AND asset_id = 'BTC'",
      [user],
    );
    const mismatches = await ledger().reconcile(t.services.pool);
    expect(mismatches.map((m) => [m.user_id, m.asset_id])).toEqual([[user, 'BTC']]);
    await t.services.pool.query(
      "UPDATE user_wallets SET balance_crypto = balance_crypto - 1 WHERE user_id = $1 AND asset_id = 'BTC'",
      [user],
    );
  });
});
