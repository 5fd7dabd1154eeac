import { randomBytes } from 'node:crypto';
import { COMMANDS, formatChainStatus } from '@server/cli-commands';
import { withTransaction } from '@server/db/tx';
import { startJobs } from '@server/jobs';
import {
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
  setSetting,
  spareStepUps,
  stepUpFor,
  walletOf,
} from '@server-test/money-helpers';
import { approveChange, putSettings } from '@server-test/settings-helpers';
import { testWatcher } from '@server-test/test-watcher';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMATIONS_SQL } from './chain-deposits.repository';
import { chainStatus } from './chain-status';
import { KEEP_BLOCKS } from './chain-watcher';
import { createFakeChain, type FakeChain, fakeTxHash } from './fake-chain';

let t: TestApp;
let alice: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  alice = await verifiedCustomer(t);
  await setSetting(t, 'confirmations_eth', '3');
});

afterAll(async () => {
  await t.close();
});

afterEach(async () => {
  // Reconciliation stays 0 whatever a test did to the chain.
  await expectReconciled(t);
});

const ETH = 10n ** 18n;

/** A fresh watched address of Alice's, and a fresh chain (its own cursor) per test. */
async function setUp(startHeight = 1) {
  const address = `0x${randomBytes(20).toString('hex')}`;
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address) VALUES ($1, 'ETH', 'ethereum', $2)`,
    [alice.userId, address],
  );
  // Every test has a chain of its own: the watcher's state is per chain name, so the
  // earlier test's cursor, blocks, errors and deposits (on a chain that no longer exists) go
  // first.
  await t.services.pool.query('DELETE FROM chain_deposits WHERE chain = $1', ['ethereum']);
  await t.services.pool.query('DELETE FROM chain_cursors WHERE chain = $1', ['ethereum']);
  await t.services.pool.query('DELETE FROM chain_watch_errors WHERE chain = $1', ['ethereum']);
  await t.services.pool.query('DELETE FROM chain_blocks WHERE chain = $1', ['ethereum']);
  const chain = createFakeChain('ethereum');
  return { address, chain, watcher: () => watcherOn(chain, startHeight) };
}

/** The customers told their confirmations moved, one entry per block and customer. */
const announced: string[] = [];

function watcherOn(chain: FakeChain, startHeight = 1) {
  return testWatcher(t, chain.adapter, {
    startHeight,
    onConfirmations: async (_client, userIds) => {
      announced.push(...userIds);
    },
  });
}

async function depositsOf(txHash: string) {
  const { rows } = await t.services.pool.query<{
    status: string;
    confirmations: number;
    block_height: string;
    transaction_id: string | null;
  }>(
    `SELECT status, ${CONFIRMATIONS_SQL} AS confirmations, block_height, transaction_id FROM chain_deposits d LEFT JOIN chain_cursors c USING (chain)
      WHERE tx_hash = $1 ORDER BY output_index`,
    [`0x${txHash}`],
  );
  return rows;
}

async function ledgerRowsOf(txHash: string) {
  const { rows } = await t.services.pool.query<{ status: string; crypto_amount: string }>(
    `SELECT status, crypto_amount::text FROM transactions
      WHERE transaction_type = 'deposit' AND transaction_hash = $1 AND user_id = $2`,
    [`0x${txHash}`, alice.userId],
  );
  return rows;
}

async function historyItem(txHash: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/transactions?limit=50',
    headers: { cookie: alice.cookie },
  });
  const items = res.json().items as Array<{
    transactionHash: string | null;
    status: string;
    confirmations?: { current: number; required: number } | null;
  }>;
  return items.find((i) => i.transactionHash === `0x${txHash}`);
}

async function ethBalance() {
  return (await walletOf(t, alice.userId, 'ETH')) ?? { balance: '0', held: '0' };
}

describe('chain watcher', () => {
  it('records a deposit when seen, pending and not spendable, and credits it once at N confirmations with a mail', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const before = await ethBalance();
    const tx = fakeTxHash(`a-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: 2n * ETH }]);
    announced.length = 0;
    expect(await w.tick()).toMatchObject({ state: 'ok', height: 1 });
    // Alice's screens are told, so her history shows the new count at once.
    expect(announced).toEqual([alice.userId]);

    expect(await depositsOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 1 }]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'pending', crypto_amount: '2.000000000000000000' },
    ]);
    expect(await ethBalance()).toEqual(before);
    // The customer's history shows it at once: pending, "Confirming 1 of 3".
    expect(await historyItem(tx)).toMatchObject({
      status: 'pending',
      amount: '2',
      confirmations: { current: 1, required: 3 },
    });

    chain.mine([], 1);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 2 }]);
    expect(await ethBalance()).toEqual(before);
    expect(await historyItem(tx)).toMatchObject({ confirmations: { current: 2, required: 3 } });

    const mailsBefore = mailsTo(t, alice.email).length;
    chain.mine([], 1);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited', confirmations: 3 }]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'completed', crypto_amount: '2.000000000000000000' },
    ]);
    const after = await ethBalance();
    expect(Number(after.balance) - Number(before.balance)).toBe(2);
    await t.services.outbox.deliver({ wait: 'all' });
    const mails = mailsTo(t, alice.email);
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails.at(-1)).toContain('Your ETH deposit has arrived');
    const credited = await historyItem(tx);
    expect(credited).toMatchObject({ status: 'completed' });
    expect(credited?.confirmations ?? null).toBeNull();

    // More blocks change nothing more.
    chain.mine([], 5);
    await w.tick();
    expect(await ledgerRowsOf(tx)).toHaveLength(1);
    expect((await ethBalance()).balance).toBe(after.balance);
  });

  it('leaves a deposit staff settled while it confirmed as staff left it, and never stalls on it', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const before = await ethBalance();
    const rejected = fakeTxHash(`rejected-${address}`);
    const kept = fakeTxHash(`kept-${address}`);
    chain.mine([
      { txHash: rejected, to: address, assetId: 'ETH', amountMinor: 5n * ETH },
      { txHash: kept, to: address, assetId: 'ETH', amountMinor: 1n * ETH },
    ]);
    await w.tick();
    // Staff reject one of the two pending rows before its confirmations (Transactions screen).
    const { rows } = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM transactions WHERE transaction_hash = $1',
      [`0x${rejected}`],
    );
    await withTransaction(t.services.pool, (client) =>
      t.services.ledger.changeStatus(client, rows[0]?.id ?? '', 'failed', {
        reason: 'Sent from a sanctioned address',
        processedBy: null,
      }),
    );
    const mailsBefore = mailsTo(t, alice.email).length;
    chain.mine([], 3);
    expect(await w.tick()).toMatchObject({ state: 'ok', height: 4 });
    // The other deposit is credited; the rejected one stays rejected, and is not paid out.
    expect(await ledgerRowsOf(kept)).toEqual([
      { status: 'completed', crypto_amount: '1.000000000000000000' },
    ]);
    expect(await ledgerRowsOf(rejected)).toEqual([
      { status: 'failed', crypto_amount: '5.000000000000000000' },
    ]);
    expect(Number((await ethBalance()).balance) - Number(before.balance)).toBe(1);
    await t.services.outbox.deliver({ wait: 'all' });
    const mails = mailsTo(t, alice.email).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Your deposit of 1 ETH');
  });

  it('one transaction paying two watched addresses is two deposits, each credited once', async () => {
    const { address, chain, watcher } = await setUp();
    const second = `0x${randomBytes(20).toString('hex')}`;
    await t.services.pool.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address) VALUES ($1, 'USDT', 'erc20', $2)`,
      [alice.userId, second],
    );
    const before = await ethBalance();
    const tx = fakeTxHash(`two-${address}`);
    chain.mine([
      { txHash: tx, outputIndex: 0, to: address, assetId: 'ETH', amountMinor: ETH },
      { txHash: tx, outputIndex: 1, to: second, assetId: 'ETH', amountMinor: 3n * ETH },
    ]);
    chain.mine([], 2);
    await watcher().tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited' }, { status: 'credited' }]);
    // The ledger keeps one row per chain hash: the second output's row names it in its memo.
    const { rows } = await t.services.pool.query<{ hash: string | null; memo: string | null }>(
      `SELECT transaction_hash AS hash, memo FROM transactions
        WHERE transaction_type = 'deposit' AND (transaction_hash = $1 OR memo LIKE $2)
        ORDER BY memo NULLS FIRST`,
      [`0x${tx}`, `0x${tx}:%`],
    );
    expect(rows).toEqual([
      { hash: `0x${tx}`, memo: null },
      { hash: null, memo: `0x${tx}:1` },
    ]);
    expect(Number((await ethBalance()).balance) - Number(before.balance)).toBe(4);
  });

  it('two watchers racing on one database, and a restarted one, credit every deposit exactly once', async () => {
    const { address, chain } = await setUp();
    const txs = Array.from({ length: 6 }, (_, i) => fakeTxHash(`race-${address}-${i}`));
    for (const tx of txs)
      chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([], 3);
    const before = await ethBalance();
    const [a, b] = [watcherOn(chain), watcherOn(chain)];
    const results = await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    for (const r of results) expect(r.state).toBe('ok');
    // A watcher killed and replaced reads the cursor and goes on from there.
    chain.mine([], 2);
    expect(await watcherOn(chain).tick()).toMatchObject({ state: 'ok', height: chain.height });
    for (const tx of txs) {
      expect(await depositsOf(tx)).toMatchObject([{ status: 'credited' }]);
      expect(await ledgerRowsOf(tx)).toEqual([
        { status: 'completed', crypto_amount: '1.000000000000000000' },
      ]);
    }
    expect(Number((await ethBalance()).balance) - Number(before.balance)).toBe(6);
  });

  it('a reorg before credit orphans the deposit (its ledger row failed), and moves it when the transaction comes back', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const before = await ethBalance();
    const tx = fakeTxHash(`reorg-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([]);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 2 }]);

    // Blocks 1 and 2 replaced by blocks without the payment.
    chain.reorg(1, [[], []]);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'orphaned' }]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'failed', crypto_amount: '1.000000000000000000' },
    ]);
    expect(await ethBalance()).toEqual(before);

    // The same transaction is mined again, in block 3: the deposit moves there.
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([
      { status: 'confirming', block_height: '3', confirmations: 1 },
    ]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'pending', crypto_amount: '1.000000000000000000' },
    ]);
    chain.mine([], 2);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited', confirmations: 3 }]);
    expect(Number((await ethBalance()).balance) - Number(before.balance)).toBe(1);
  });

  it('a reorg after credit never debits: the deposit is marked reversed-on-chain and staff get an audit row', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const tx = fakeTxHash(`reversed-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([], 2);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited' }]);
    const credited = await ethBalance();

    chain.reorg(1, [[], [], [], []]);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'reversed-on-chain' }]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'completed', crypto_amount: '1.000000000000000000' },
    ]);
    expect(await ethBalance()).toEqual(credited);
    const { rows } = await t.services.pool.query<{ action: string; reason: string }>(
      `SELECT action, reason FROM audit_log WHERE target_user_id = $1 AND action = 'chain.deposit.reversed'`,
      [alice.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.reason).toContain(`0x${tx}`);

    // Staff see it as an alert; a customer may not look.
    const admin = await verifiedAdmin(t);
    const res = await call(t, { url: '/api/admin/chains', cookie: admin.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().alerts).toEqual([
      expect.objectContaining({
        txHash: `0x${tx}`,
        userId: alice.userId,
        email: alice.email,
        assetId: 'ETH',
        amountMinor: ETH.toString(),
      }),
    ]);
    const refused = await call(t, { url: '/api/admin/chains', cookie: alice.cookie });
    expect(refused.statusCode).toBe(403);

    // The transaction is mined again: credited as before, not a second time, and staff are
    // told it is back.
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited', block_height: '5' }]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'completed', crypto_amount: '1.000000000000000000' },
    ]);
    expect(await ethBalance()).toEqual(credited);
    const back = await t.services.pool.query(
      `SELECT 1 FROM audit_log WHERE target_user_id = $1 AND action = 'chain.deposit.returned'`,
      [alice.userId],
    );
    expect(back.rowCount).toBe(1);
    const after = await call(t, { url: '/api/admin/chains', cookie: admin.cookie });
    expect(after.json().alerts).toEqual([]);
  });

  it('a node that is down invents no deposits, records the error, backs off and recovers', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    await w.tick();
    const tx = fakeTxHash(`down-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.fail('connect ECONNREFUSED');
    // Only the error is recorded (cursor, error count): no deposit, block or ledger row appears.
    const before = await databaseText(t, ['chain_cursors', 'chain_watch_errors']);
    expect(await w.tick()).toMatchObject({ state: 'failed', error: 'connect ECONNREFUSED' });
    expect(await databaseText(t, ['chain_cursors', 'chain_watch_errors'])).toEqual(before);
    expect(await depositsOf(tx)).toEqual([]);
    const { rows } = await t.services.pool.query<{ last_error: string; height: string }>(
      `SELECT last_error, height FROM chain_cursors WHERE chain = 'ethereum'`,
    );
    expect(rows[0]).toMatchObject({ last_error: 'connect ECONNREFUSED', height: '0' });
    // Backing off: the next tick does not even ask the node.
    chain.fail(null);
    const asked = chain.calls.tip;
    expect(await w.tick()).toMatchObject({ state: 'waiting' });
    expect(chain.calls.tip).toBe(asked);
    expect(await databaseText(t, ['chain_cursors', 'chain_watch_errors'])).toEqual(before);
    w.retryNow();
    expect(await w.tick()).toMatchObject({ state: 'ok', height: 1 });
    expect(await depositsOf(tx)).toMatchObject([{ status: 'confirming' }]);
  });

  it('a node whose tip goes backwards is reported and nothing is undone', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const tx = fakeTxHash(`back-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([], 1);
    await w.tick();
    chain.reportTip(0);
    const result = await w.tick();
    expect(result.state).toBe('failed');
    expect(result.state === 'failed' && result.error).toContain('below the watcher');
    expect(await depositsOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 2 }]);
    chain.reportTip(null);
    chain.mine([], 1);
    w.retryNow();
    expect(await w.tick()).toMatchObject({ state: 'ok', height: 3 });
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited' }]);
  });

  it('a node whose chain became shorter (invalidated blocks) is a reorg: rolled back to the common ancestor', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const tx = fakeTxHash(`shorter-${address}`);
    chain.mine([], 1);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([], 1);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'confirming', confirmations: 2 }]);
    // Blocks 2 and 3 invalidated; one new block 2 without the payment: tip 2 < height 3.
    chain.reorg(2, [[]], { shorter: true });
    expect(await w.tick()).toMatchObject({ state: 'ok', height: 2, tip: 2 });
    expect(await depositsOf(tx)).toMatchObject([{ status: 'orphaned' }]);
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'failed', crypto_amount: '1.000000000000000000' },
    ]);
  });

  it('a reorg deeper than the blocks kept stops the watcher with an error and changes nothing', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const tx = fakeTxHash(`deep-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([], KEEP_BLOCKS + 5);
    await w.tick();
    expect(await depositsOf(tx)).toMatchObject([{ status: 'credited' }]);
    chain.reorg(1);
    const before = await databaseText(t, ['chain_cursors', 'chain_watch_errors']);
    const result = await w.tick();
    expect(result.state === 'failed' && result.error).toContain(
      `deeper than the ${KEEP_BLOCKS} blocks kept`,
    );
    expect(await databaseText(t, ['chain_cursors', 'chain_watch_errors'])).toEqual(before);
    const { rows } = await t.services.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM chain_blocks WHERE chain = 'ethereum'`,
    );
    expect(rows[0]?.n).toBe(KEEP_BLOCKS);
  });

  it('a manual credit of a transaction the watcher knows is refused and changes nothing', async () => {
    const { address, chain, watcher } = await setUp();
    const w = watcher();
    const tx = fakeTxHash(`manual-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    await w.tick();
    const result = await withoutChange(t, () =>
      t.services.deposits.credit({
        email: alice.email,
        assetId: 'ETH',
        amount: ETH,
        transactionHash: tx.toUpperCase(),
      }),
    );
    expect(result).toMatchObject({ outcome: 'chain-watched' });
    expect(await ledgerRowsOf(tx)).toEqual([
      { status: 'pending', crypto_amount: '1.000000000000000000' },
    ]);

    // Nor may staff add it by hand (Add Transaction), in any spelling of the hash.
    const admin = await verifiedAdmin(t);
    const res = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: '/api/admin/transactions',
        cookie: admin.cookie,
        body: {
          userId: alice.userId,
          assetId: 'ETH',
          type: 'deposit',
          cryptoAmount: '1',
          usdAmount: '3000.00',
          audAmount: '',
          status: 'completed',
          transactionDate: new Date().toISOString(),
          transactionHash: `0X${tx.toUpperCase()}`,
          reason: 'Seen on the explorer',
          stepUp: stepUpFor(admin),
        },
      }),
    );
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toContain('already credited');
  });

  it('the confirmation settings default to 3, 12 and 19, take whole numbers of blocks from 1 to 100 only, and change with a second admin', async () => {
    const admin = await verifiedAdmin(t);
    const approver = await verifiedAdmin(t);
    await spareStepUps(t, admin);
    await spareStepUps(t, approver);
    const read = async () => {
      const res = await call(t, { url: '/api/admin/settings', cookie: admin.cookie });
      return Object.fromEntries(
        res.json().settings.map((x: { key: string; value: string }) => [x.key, x.value]),
      );
    };
    expect(await read()).toMatchObject({
      confirmations_btc: '3',
      confirmations_eth: '3', // this file's own setting (beforeAll)
      confirmations_tron: '19',
    });
    for (const value of ['0', '101', '2.5', '-1', 'six', '']) {
      const res = await withoutChange(t, () =>
        putSettings(t, admin, { confirmations_tron: value }),
      );
      expect(res.statusCode, value).toBe(400);
      expect(errorOf(res).message).toBe(
        'TRON confirmations must be a whole number of blocks from 1 to 100.',
      );
    }
    // Fewer or more blocks before a deposit counts: proposed, applied when another admin approves.
    const proposed = await putSettings(t, admin, { confirmations_btc: '6' });
    expect(proposed.statusCode).toBe(202);
    expect(await read()).toMatchObject({ confirmations_btc: '3' });
    const approved = await approveChange(t, approver, proposed.json().pending[0].id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await read()).toMatchObject({ confirmations_btc: '6' });
  });

  it('runs as the exclusive job chain-ethereum, and chain-status tells where each chain stands', async () => {
    const { address, chain } = await setUp();
    const tx = fakeTxHash(`job-${address}`);
    chain.mine([{ txHash: tx, to: address, assetId: 'ETH', amountMinor: ETH }]);
    chain.mine([], 2);
    const watcher = watcherOn(chain);
    const jobs = startJobs({ ...t.services, chainWatchers: [watcher] }, { lockRetryMs: 200 });
    try {
      await jobs.started;
      expect(jobs.held()).toContain('chain-ethereum');
      await expect
        .poll(async () => (await depositsOf(tx))[0]?.status, { timeout: 10_000 })
        .toBe('credited');
    } finally {
      await jobs.stop();
    }

    // A second deposit waits for confirmations, and the node is failing.
    const waiting = fakeTxHash(`job-waiting-${address}`);
    chain.mine([{ txHash: waiting, to: address, assetId: 'ETH', amountMinor: ETH }]);
    await watcher.tick();
    chain.mine([], 3);
    chain.fail('node timed out');
    watcher.retryNow();
    await watcher.tick();
    const [status] = await chainStatus(t.services.pool, [chain.adapter]);
    expect(status).toMatchObject({
      chain: 'ethereum',
      nodeTip: 4,
      height: 4,
      lag: 0,
      errorsLastHour: 1,
      lastError: 'node timed out',
      confirming: 1,
      reversedOnChain: 0,
      requiredConfirmations: 3,
    });
    expect(status?.watchedAddresses).toBeGreaterThanOrEqual(1);
    const text = formatChainStatus(status ?? expect.fail('no status'));
    expect(text).toContain('watcher height:     4');
    expect(text).toContain('errors, last hour:  1 (last at ');
    expect(text).toContain('node timed out');
    expect(text).toContain('awaiting confirmations: 1 deposit(s) (3 needed)');
    // With no chain configured, the command says so.
    expect(await COMMANDS['chain-status']?.run(t.services, [])).toContain('No chain is watched');
  });
});
