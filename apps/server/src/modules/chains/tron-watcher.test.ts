import { toMinor } from '@coffer/shared';
import {
  type FakeTronGrid,
  randomTronAddress,
  startFakeTronGrid,
} from '@server-test/fake-trongrid';
import {
  createTestApp,
  databaseText,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
} from '@server-test/helpers';
import { expectReconciled, walletOf } from '@server-test/money-helpers';
import { testWatcher } from '@server-test/test-watcher';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMATIONS_SQL } from './chain-deposits.repository';
import { TronAdapter } from './tron-adapter';

// The watcher over the TRON adapter over the fake TronGrid: what a customer's USDT-TRC20
// deposit goes through, with TRON's default of 19 confirmations.
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONFIRMATIONS = 19;

let t: TestApp;
let alice: SignedInUser;
let fake: FakeTronGrid;

beforeAll(async () => {
  t = await createTestApp();
  alice = await verifiedCustomer(t);
});

afterAll(async () => {
  await fake?.close();
  await t.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

/** Alice's watched TRON address, a fresh fake TronGrid and a watcher from its block 1. */
async function setUp() {
  const address = randomTronAddress();
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address) VALUES ($1, 'USDT', 'trc20', $2)`,
    [alice.userId, address],
  );
  // A new chain per test: the cursor and kept blocks of the last one go.
  await t.services.pool.query(`DELETE FROM chain_cursors WHERE chain = 'tron'`);
  await t.services.pool.query(`DELETE FROM chain_blocks WHERE chain = 'tron'`);
  await fake?.close();
  fake = await startFakeTronGrid({ usdtContract: USDT });
  const watcher = testWatcher(
    t,
    new TronAdapter({ apiUrl: fake.url, usdtContract: USDT, timeoutMs: 1_000 }),
  );
  return { address, watcher };
}

function mineEmpty(n: number) {
  for (let i = 0; i < n; i++) fake.mine();
}

async function depositOf(txHash: string | undefined) {
  const { rows } = await t.services.pool.query<{
    status: string;
    confirmations: number;
    amount: string;
  }>(
    `SELECT status, ${CONFIRMATIONS_SQL} AS confirmations, amount_minor::text AS amount FROM chain_deposits d LEFT JOIN chain_cursors c USING (chain) WHERE chain = 'tron' AND tx_hash = $1`,
    [txHash],
  );
  return rows;
}

async function ledgerRowsOf(txHash: string | undefined) {
  const { rows } = await t.services.pool.query<{ status: string; crypto_amount: string }>(
    `SELECT status, trim_scale(crypto_amount)::text AS crypto_amount FROM transactions
      WHERE transaction_type = 'deposit' AND transaction_hash = $1 AND user_id = $2`,
    [txHash, alice.userId],
  );
  return rows;
}

async function usdt() {
  return (await walletOf(t, alice.userId, 'USDT-TRC20')) ?? { balance: '0', held: '0' };
}

describe('TRON deposits through the watcher', () => {
  it(`credits a USDT-TRC20 deposit once, at ${CONFIRMATIONS} confirmations, with a mail`, async () => {
    const { address, watcher } = await setUp();
    const before = await usdt();
    const mailsBefore = mailsTo(t, alice.email).length;
    // Two events to a page: the block's events come over several pages.
    fake.state.pageSize = 2;
    const block = fake.mine([
      { to: randomTronAddress(), value: '5000000' },
      { to: address, value: '12345678' },
      { to: randomTronAddress(), value: '7000000' },
      { to: randomTronAddress(), value: '9000000' },
    ]);
    const tx = block.events[1]?.transactionId;
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: block.number });
    expect(await depositOf(tx)).toEqual([
      { status: 'confirming', confirmations: 1, amount: '12345678' },
    ]);
    expect(await ledgerRowsOf(tx)).toEqual([{ status: 'pending', crypto_amount: '12.345678' }]);
    expect(await usdt()).toEqual(before);

    mineEmpty(CONFIRMATIONS - 2);
    await watcher.tick();
    expect(await depositOf(tx)).toMatchObject([
      { status: 'confirming', confirmations: CONFIRMATIONS - 1 },
    ]);
    expect(await usdt()).toEqual(before);

    mineEmpty(1);
    await watcher.tick();
    expect(await depositOf(tx)).toMatchObject([
      { status: 'credited', confirmations: CONFIRMATIONS },
    ]);
    expect(await ledgerRowsOf(tx)).toEqual([{ status: 'completed', crypto_amount: '12.345678' }]);
    const credited = await usdt();
    expect(toMinor('USDT-TRC20', credited.balance) - toMinor('USDT-TRC20', before.balance)).toBe(
      12_345_678n,
    );
    await t.services.outbox.deliver({ wait: 'all' });
    const mails = mailsTo(t, alice.email).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Your USDT deposit has arrived');
    expect(mails[0]).toContain('12.345678 USDT');

    // More blocks, and the node failing for a while: never credited twice.
    mineEmpty(5);
    fake.state.mode = 'http500';
    const unchanged = await databaseText(t, ['chain_cursors', 'chain_watch_errors']);
    expect(await watcher.tick()).toMatchObject({ state: 'failed' });
    // Only the cursor's error note changes: no deposit, ledger row or balance.
    expect(await databaseText(t, ['chain_cursors', 'chain_watch_errors'])).toEqual(unchanged);
    // …and the failure is on record, for chain-status and the Chains figures.
    const errors = await t.services.pool.query('SELECT chain FROM chain_watch_errors');
    expect(errors.rows).toEqual([{ chain: 'tron' }]);
    fake.state.mode = 'ok';
    watcher.retryNow();
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: fake.tip() });
    expect(await ledgerRowsOf(tx)).toHaveLength(1);
    expect(await usdt()).toEqual(credited);
    await t.services.outbox.deliver({ wait: 'all' });
    expect(mailsTo(t, alice.email).slice(mailsBefore)).toHaveLength(1);
  });

  it('waits for a lagging event index instead of passing a block over as empty', async () => {
    const { address, watcher } = await setUp();
    mineEmpty(2);
    const indexedUpTo = fake.tip();
    const block = fake.mine([{ to: address, value: '4200000' }]);
    const tx = block.events[0]?.transactionId;
    mineEmpty(2);
    // The node has the block; the events API has not reached it yet and answers it empty.
    fake.state.indexedUpTo = indexedUpTo;
    const result = await watcher.tick();
    expect(result).toMatchObject({ state: 'failed' });
    expect(result.state === 'failed' && result.error).toContain(
      `the events of block ${block.number} are not indexed yet`,
    );
    // The watcher stopped below the block, so it is read again, not skipped.
    const { rows } = await t.services.pool.query(
      `SELECT height FROM chain_cursors WHERE chain = 'tron'`,
    );
    expect(Number(rows[0]?.height)).toBe(block.number - 1);
    expect(await depositOf(tx)).toEqual([]);

    fake.state.indexedUpTo = null;
    watcher.retryNow();
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: fake.tip() });
    expect(await depositOf(tx)).toEqual([
      { status: 'confirming', confirmations: 3, amount: '4200000' },
    ]);
  });

  it('drops a deposit whose block leaves the chain before its confirmations', async () => {
    const { address, watcher } = await setUp();
    const before = await usdt();
    mineEmpty(2);
    const block = fake.mine([{ to: address, value: '250000000' }]);
    const tx = block.events[0]?.transactionId;
    mineEmpty(3);
    await watcher.tick();
    expect(await depositOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 4 }]);

    // A longer branch from below the deposit's block, without the deposit.
    fake.rewind(block.number);
    mineEmpty(CONFIRMATIONS + 5);
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: fake.tip() });
    expect(await depositOf(tx)).toMatchObject([{ status: 'orphaned' }]);
    expect(await ledgerRowsOf(tx)).toEqual([{ status: 'failed', crypto_amount: '250' }]);
    expect(await usdt()).toEqual(before);
  });

  it('moves a deposit whose transaction comes back in another block, and credits it once there', async () => {
    const { address, watcher } = await setUp();
    const before = await usdt();
    const block = fake.mine([{ to: address, value: '3000000' }]);
    const tx = block.events[0]?.transactionId;
    mineEmpty(2);
    await watcher.tick();
    expect(await depositOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 3 }]);

    // The new branch carries the same transaction two blocks later.
    fake.rewind(block.number);
    mineEmpty(2);
    const again = fake.mine([{ to: address, value: '3000000', transactionId: tx }]);
    await watcher.tick();
    expect(await depositOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 1 }]);
    expect(await ledgerRowsOf(tx)).toEqual([{ status: 'pending', crypto_amount: '3' }]);

    mineEmpty(CONFIRMATIONS - 1);
    await watcher.tick();
    expect(fake.tip()).toBe(again.number + CONFIRMATIONS - 1);
    expect(await depositOf(tx)).toMatchObject([
      { status: 'credited', confirmations: CONFIRMATIONS },
    ]);
    expect(await ledgerRowsOf(tx)).toEqual([{ status: 'completed', crypto_amount: '3' }]);
    expect(
      toMinor('USDT-TRC20', (await usdt()).balance) - toMinor('USDT-TRC20', before.balance),
    ).toBe(3_000_000n);
  });

  it('never debits a credited deposit that leaves the chain: staff get an audit row', async () => {
    const { address, watcher } = await setUp();
    const block = fake.mine([{ to: address, value: '1000000' }]);
    const tx = block.events[0]?.transactionId;
    mineEmpty(CONFIRMATIONS - 1);
    await watcher.tick();
    expect(await depositOf(tx)).toMatchObject([{ status: 'credited' }]);
    const credited = await usdt();

    fake.rewind(block.number);
    mineEmpty(CONFIRMATIONS + 1);
    expect(await watcher.tick()).toMatchObject({ state: 'ok', height: fake.tip() });
    expect(await depositOf(tx)).toMatchObject([{ status: 'reversed-on-chain' }]);
    expect(await ledgerRowsOf(tx)).toEqual([{ status: 'completed', crypto_amount: '1' }]);
    expect(await usdt()).toEqual(credited);
    const { rows } = await t.services.pool.query<{ reason: string }>(
      `SELECT reason FROM audit_log WHERE target_user_id = $1 AND action = 'chain.deposit.reversed'`,
      [alice.userId],
    );
    expect(rows.filter((r) => r.reason.includes(tx ?? '-'))).toHaveLength(1);
  });
});
