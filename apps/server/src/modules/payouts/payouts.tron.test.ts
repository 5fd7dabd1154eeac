import { randomBytes } from 'node:crypto';
import { toMinor } from '@coffer/shared';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import {
  type FakeTronGrid,
  randomTronAddress,
  startFakeTronGrid,
} from '@server-test/fake-trongrid';
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
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainWatcher } from '../chains';

/**
 * TRON payouts are paid outside Coffer and completed with their hash; on a watched TRON
 * (a TronGrid-compatible API, here the fake) that hash must pay the payout's address exactly
 * its amount in USDT-TRC20 before the payout completes, at `confirmations_tron`.
 */

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONFIRMATIONS = 3;
const TRON_XPUB = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
).derive("m/44'/195'/0'").publicExtendedKey;

let t: TestApp;
let fake: FakeTronGrid;
let watcher: ChainWatcher;
let alice: SignedInUser;
let admin: SignedInUser;
/** Approves the hand completions `admin` proposes (two people, decision 0036). */
let checker: SignedInUser;

beforeAll(async () => {
  fake = await startFakeTronGrid({ usdtContract: USDT });
  t = await createTestApp({
    TRON_API_URL: fake.url,
    TRON_XPUB,
    USDT_TRC20_CONTRACT: USDT,
  });
  const found = t.services.chainWatchers.find((w) => w.chain === 'tron');
  if (!found) throw new Error('the app watches no TRON');
  watcher = found;
  await setSetting(t, 'confirmations_tron', String(CONFIRMATIONS));
  await setSetting(t, 'max_daily_withdrawal', '100000000');
  alice = await spareStepUps(t, await verifiedCustomer(t));
  admin = await spareStepUps(t, await verifiedAdmin(t));
  checker = await spareStepUps(t, await verifiedAdmin(t));
  await fund(t, alice.userId, 'USDT-TRC20', '1000');
  expect((await watcher.tick()).state).toBe('ok');
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

/** Mines one block (with these transfers) and lets the watcher read it. */
async function mineAndTick(transfers: Parameters<FakeTronGrid['mine']>[0] = []) {
  const block = fake.mine(transfers);
  expect(await watcher.tick()).toMatchObject({ state: 'ok', height: block.number });
  return block;
}

/** The id of the only transaction of a block mined with one transfer. */
function onlyTx(block: ReturnType<FakeTronGrid['mine']>): string {
  const id = block.events[0]?.transactionId;
  if (!id) throw new Error('the block has no transaction');
  return id;
}

/** A USDT-TRC20 withdrawal a customer asks for and an admin approves; its ledger row id. */
async function approvedWithdrawal(
  app: TestApp,
  by: { customer: SignedInUser; admin: SignedInUser },
  to: string,
  amount: string,
): Promise<string> {
  const res = await requestWithdrawal(app, by.customer, {
    assetId: 'USDT-TRC20',
    amount,
    address: to,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().transaction.id as string;
  const approved = await call(app, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: by.admin.cookie,
    body: { stepUp: stepUpFor(by.admin) },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  expect(approved.json().transaction.payoutState).toBe('approved');
  return id;
}

/**
 * A hand completion proposed by `by` and approved by `approver`: a refused proposal's
 * answer, or the approval's if refused, else the payout as it is then.
 */
async function complete(id: string, reference: string, app = t, by = admin, approver = checker) {
  const proposed = await call(app, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/complete`,
    cookie: by.cookie,
    body: { reference, stepUp: stepUpFor(by) },
  });
  if (proposed.statusCode !== 202) return proposed;
  const approved = await call(app, {
    method: 'POST',
    url: `/api/admin/changes/${proposed.json().pending.id}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
  if (approved.statusCode !== 200) return approved;
  return call(app, { url: `/api/admin/transactions/${id}`, cookie: approver.cookie });
}

async function payout(id: string) {
  const { rows } = await t.services.pool.query<{
    state: string;
    tx_hash: string | null;
    block_height: number | null;
    returned_count: number;
  }>(
    'SELECT state, tx_hash, block_height::int, returned_count FROM payouts WHERE transaction_id = $1',
    [id],
  );
  return rows[0];
}

async function ledgerRow(id: string) {
  const { rows } = await t.services.pool.query<{ status: string; transaction_hash: string | null }>(
    'SELECT status, transaction_hash FROM transactions WHERE id = $1',
    [id],
  );
  return rows[0];
}

const usdt = () => walletOf(t, alice.userId, 'USDT-TRC20');
/** The "sent" mails Alice has, once the outbox has delivered what is due. */
async function sentMails(): Promise<number> {
  await t.services.outbox.deliver({ wait: 'all' });
  return mailsTo(t, alice.email).filter((m) => m.includes('Your withdrawal has been sent')).length;
}

describe('a TRON payout completed with a hash', () => {
  it('refuses a hash that pays another address, another amount or nothing, saying what it pays; the hold stays', async () => {
    const to = randomTronAddress();
    const id = await approvedWithdrawal(t, { customer: alice, admin }, to, '25');
    const elsewhere = randomTronAddress();
    const other = await mineAndTick([{ to: elsewhere, value: '25000000' }]);
    const tooLittle = await mineAndTick([{ to, value: '24000000' }]);
    const reverted = await mineAndTick([{ to, value: '25000000', success: false }]);
    const otherToken = await mineAndTick([
      { to, value: '25000000', contract: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' },
    ]);
    const held = await usdt();

    for (const [block, pays] of [
      // Addresses as staff know them (T…), never the API's hex form.
      [other, `25 to ${elsewhere}`],
      [tooLittle, `24 to ${to}`],
      [reverted, 'nothing in this asset'],
      [otherToken, 'nothing in this asset'],
    ] as const) {
      const res = await withoutChange(t, () => complete(id, onlyTx(block)));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'VALIDATION_FAILED',
        message: `This transaction pays ${pays}, not 25 USDT to ${to}. The payout stays held.`,
      });
    }
    expect(await payout(id)).toMatchObject({ state: 'approved', tx_hash: null });
    expect(await ledgerRow(id)).toEqual({ status: 'pending', transaction_hash: null });
    expect(await usdt()).toEqual(held);
  });

  it('takes a hash that pays exactly, already in a block, and completes it at the confirmations', async () => {
    const to = randomTronAddress();
    const id = await approvedWithdrawal(t, { customer: alice, admin }, to, '12.5');
    const paid = await mineAndTick([{ to, value: '12500000' }]);
    const hash = onlyTx(paid);
    const held = await usdt();
    const mails = await sentMails();

    // Written as staff might copy it: upper case, with 0x.
    const res = await complete(id, `0x${hash.toUpperCase()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().transaction).toMatchObject({ status: 'pending', payoutState: 'confirming' });
    expect(await payout(id)).toMatchObject({
      state: 'confirming',
      tx_hash: hash,
      block_height: paid.number,
    });
    expect(await ledgerRow(id)).toEqual({ status: 'pending', transaction_hash: null });

    // The block that holds it is the first confirmation.
    for (let i = 1; i < CONFIRMATIONS - 1; i++) await mineAndTick();
    expect((await payout(id))?.state).toBe('confirming');
    expect(await usdt()).toEqual(held);
    await mineAndTick();
    expect((await payout(id))?.state).toBe('completed');
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: hash });
    expect(await sentMails()).toBe(mails + 1);
    // 12.5 and the 0.002 network fee leave both the balance and the hold.
    const after = await usdt();
    const minor = (v: string | undefined) => toMinor('USDT-TRC20', v ?? 'NaN');
    expect(minor(after?.balance)).toBe(minor(held?.balance) - 12_502_000n);
    expect(minor(after?.held)).toBe(minor(held?.held) - 12_502_000n);

    // More blocks change nothing.
    await mineAndTick();
    expect(await sentMails()).toBe(mails + 1);
    expect(await usdt()).toEqual(after);
  });

  it('waits for a hash the chain does not show yet, then confirms and completes it once it pays exactly', async () => {
    const to = randomTronAddress();
    const id = await approvedWithdrawal(t, { customer: alice, admin }, to, '7');
    const hash = randomBytes(32).toString('hex');

    const res = await complete(id, hash);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().transaction).toMatchObject({ status: 'pending', payoutState: 'manual' });
    expect(await payout(id)).toMatchObject({ state: 'manual', tx_hash: hash, block_height: null });

    // Blocks without it: still waiting.
    await mineAndTick([{ to: randomTronAddress(), value: '7000000' }]);
    expect((await payout(id))?.state).toBe('manual');

    const paid = await mineAndTick([
      { to: randomTronAddress(), value: '1000000' },
      { to, value: '7000000', transactionId: hash },
    ]);
    expect(await payout(id)).toMatchObject({ state: 'confirming', block_height: paid.number });
    for (let i = 1; i < CONFIRMATIONS; i++) await mineAndTick();
    expect((await payout(id))?.state).toBe('completed');
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: hash });
  });

  it('returns a waiting payout to approved, once, when its hash appears paying something else', async () => {
    const to = randomTronAddress();
    const id = await approvedWithdrawal(t, { customer: alice, admin }, to, '9');
    const hash = randomBytes(32).toString('hex');
    expect((await complete(id, hash)).statusCode).toBe(200);
    const held = await usdt();

    await mineAndTick([{ to, value: '8000000', transactionId: hash }]);
    expect(await payout(id)).toMatchObject({ state: 'approved', returned_count: 1 });
    const audits = await t.services.pool.query<{ reason: string }>(
      `SELECT reason FROM audit_log WHERE action = 'payouts.returned' AND target_id = $1`,
      [id],
    );
    expect(audits.rows).toHaveLength(1);
    expect(audits.rows[0]?.reason).toContain(hash);
    expect(await ledgerRow(id)).toEqual({ status: 'pending', transaction_hash: null });
    expect(await usdt()).toEqual(held);

    // Later blocks do not return it again.
    for (let i = 0; i < CONFIRMATIONS; i++) await mineAndTick();
    expect(await payout(id)).toMatchObject({ state: 'approved', returned_count: 1 });
  });
});

describe('without a TRON API configured', () => {
  it('completes a typed USDT-TRC20 hash at once, marked unverified', async () => {
    const plain = await createTestApp();
    try {
      const customer = await spareStepUps(plain, await verifiedCustomer(plain));
      const staff = await spareStepUps(plain, await verifiedAdmin(plain));
      const second = await spareStepUps(plain, await verifiedAdmin(plain));
      await fund(plain, customer.userId, 'USDT-TRC20', '100');
      const id = await approvedWithdrawal(
        plain,
        { customer, admin: staff },
        randomTronAddress(),
        '10',
      );
      const hash = randomBytes(32).toString('hex');
      const res = await complete(id, hash, plain, staff, second);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().transaction).toMatchObject({
        status: 'completed',
        payoutState: 'unverified',
      });
      const { rows } = await plain.services.pool.query(
        'SELECT status, transaction_hash FROM transactions WHERE id = $1',
        [id],
      );
      expect(rows).toEqual([{ status: 'completed', transaction_hash: hash }]);
      await expectReconciled(plain);
    } finally {
      await plain.close();
    }
  }, 60_000);
});
