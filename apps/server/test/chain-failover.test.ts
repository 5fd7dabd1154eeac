import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fromMinor } from '@coffer/shared';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import pg from 'pg';
import { type Address, encodeFunctionData, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LOCK_KEYS, JOB_LOCK_NAMESPACE } from '../src/lib/job-lock';
import { startFakeFeeds } from './fake-feeds';
import { type Anvil, startAnvil } from './fixtures/ethereum/anvil';
import { type TestChain, testChain } from './fixtures/ethereum/test-chain';
import { testTokenArtifact } from './fixtures/ethereum/test-token';
import { call, createTestApp, type SignedInUser, type TestApp, verifiedCustomer } from './helpers';
import { expectReconciled, setSetting, walletOf } from './money-helpers';

/**
 * Failover of a chain watcher (issue 14): the instance following the node is killed with
 * SIGKILL in the middle of a long catch-up, another instance on the same database takes the
 * chain's job lock and carries on from the cursor, and every deposit on the chain ends up
 * recorded once and credited once, whatever the killed instance had half-done.
 */

const CONFIRMATIONS = 3;
const CUSTOMERS = 4;
/** Blocks holding deposits: enough that a catch-up takes a few seconds, so a kill lands in it. */
const DEPOSIT_BLOCKS = 320;
/** Instance A is killed once its cursor is this far past the start (some deposits credited). */
const KILL_AFTER_BLOCKS = 20;

// The operator's account key, the same test mnemonic as the other Ethereum watcher tests.
const ACCOUNT = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
).derive("m/44'/60'/0'");

const root = path.resolve(import.meta.dirname, '../../..');

type Sent = { to: number; assetId: 'ETH' | 'USDT-ERC20'; amountMinor: bigint; txHash: string };

let t: TestApp;
let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let anvil: Anvil;
let chain: TestChain;
let usdt: Address;
let customers: SignedInUser[];
let addresses: Address[];
/** A connection of the test's own for polling, so a slow pool never delays a kill. */
let watch: pg.Client;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  feeds = await startFakeFeeds();
  anvil = await startAnvil();
  chain = testChain(anvil);
  usdt = await chain.deployToken(6);
  t = await createTestApp({
    ETH_RPC_URL: anvil.url,
    ETH_XPUB: ACCOUNT.publicExtendedKey,
    USDT_ERC20_CONTRACT: usdt,
    PRICE_FEED_URL: feeds.priceFeedUrl,
    FX_FEED_URL: feeds.fxFeedUrl,
  });
  await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
  customers = [];
  for (let i = 0; i < CUSTOMERS; i++) customers.push(await verifiedCustomer(t));
  watch = new pg.Client({ connectionString: t.databaseUrl });
  await watch.connect();
}, 60_000);

afterEach(() => {
  for (const child of children) if (child.exitCode === null && !child.signalCode) child.kill();
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && !child.signalCode) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
  }
  await watch?.end();
  await anvil?.stop();
  await feeds?.close();
  await t?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The customer's Ethereum deposit address, as their deposit page shows it (derived on first look). */
async function ethAddressOf(user: SignedInUser): Promise<Address> {
  const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
  expect(res.statusCode).toBe(200);
  const shown = (res.json().addresses as { assetId: string | null; address: string }[]).filter(
    (a) => a.assetId === 'ETH' || a.assetId === 'USDT-ERC20',
  );
  expect(shown.map((a) => a.assetId).sort()).toEqual(['ETH', 'USDT-ERC20']);
  expect(shown[0]?.address).toBe(shown[1]?.address);
  return shown[0]?.address as Address;
}

/**
 * Fills the chain: per block one `batchTransfer` of the token to some customers (now and then
 * one customer twice in the same transaction) and, every other block, plain ETH to one of
 * them; amounts differ everywhere, so a deposit credited to the wrong customer or twice shows
 * in the sums. Signed here with counted nonces: hundreds of blocks in a few seconds.
 */
async function fillChain(): Promise<Sent[]> {
  const { abi } = testTokenArtifact();
  const sent: Sent[] = [];
  const chainId = await chain.client.getChainId();
  let nonce = await chain.client.getTransactionCount({
    address: chain.account.address,
    blockTag: 'pending',
  });
  const send = async (tx: { to: Address; value?: bigint; data?: Hex; gas: bigint }) => {
    const raw = await chain.account.signTransaction({
      chainId,
      type: 'eip1559',
      nonce: nonce++,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1n,
      ...tx,
    });
    return anvil.rpc<Hex>('eth_sendRawTransaction', [raw]);
  };
  for (let b = 0; b < DEPOSIT_BLOCKS; b++) {
    const picked = [...Array(CUSTOMERS).keys()].filter((i) => (b + i) % 3 !== 0);
    if (b % 10 === 0) picked.push(b % CUSTOMERS);
    const amounts = picked.map((i, k) => BigInt(b * 1_000_000 + i * 1_000 + k + 1));
    const tokenTx = await send({
      to: usdt,
      gas: 60_000n + 40_000n * BigInt(picked.length),
      data: encodeFunctionData({
        abi,
        functionName: 'batchTransfer',
        args: [picked.map((i) => addresses[i] as Address), amounts],
      }),
    });
    picked.forEach((i, k) => {
      sent.push({ to: i, assetId: 'USDT-ERC20', amountMinor: amounts[k] ?? 0n, txHash: tokenTx });
    });
    if (b % 2 === 0) {
      const to = (b / 2) % CUSTOMERS;
      const wei = BigInt(b + 1) * 10n ** 14n + BigInt(to);
      const ethTx = await send({ to: addresses[to] as Address, value: wei, gas: 21_000n });
      sent.push({ to, assetId: 'ETH', amountMinor: wei, txHash: ethTx });
    }
    await anvil.mine();
  }
  // Past the confirmations of the last deposit: at the tip, every one of them is due.
  await anvil.mine(CONFIRMATIONS);
  return sent;
}

async function cursorHeight(): Promise<number | null> {
  const { rows } = await watch.query<{ height: string }>(
    `SELECT height::text FROM chain_cursors WHERE chain = 'ethereum'`,
  );
  return rows[0] ? Number(rows[0].height) : null;
}

async function depositCount(status: 'credited' | 'confirming'): Promise<number> {
  const { rows } = await watch.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM chain_deposits WHERE chain = 'ethereum' AND status = $1`,
    [status],
  );
  return rows[0]?.n ?? 0;
}

/** Polls until `check` gives a value, or fails with what it last saw. */
async function until<T>(
  what: string,
  check: () => Promise<T | null>,
  opts: { timeoutMs: number; intervalMs?: number; seen?: () => string },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: not within ${opts.timeoutMs} ms${opts.seen ? `; ${opts.seen()}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

type Instance = {
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number>;
  /** The exclusive jobs whose lock this instance has logged taking. */
  locks: Set<string>;
  /** Its stderr and its warnings and errors, for a failure message. */
  trouble(): string;
};

/**
 * Another Coffer instance on the test's database: a child process running the server's
 * services and timed jobs (job-instance.ts) with this chain configured, as an operator's
 * second server would be. Its JSON log says which job locks it takes.
 */
function startInstance(): Instance {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-chain-failover-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/job-instance.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: dataDir,
      // The test app's key: the start-up key check refuses any other on its database.
      COFFER_SECRET_KEY: t.secretKeyHex ?? '',
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
      ETH_RPC_URL: anvil.url,
      ETH_XPUB: ACCOUNT.publicExtendedKey,
      USDT_ERC20_CONTRACT: usdt,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | number>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)),
  );
  const locks = new Set<string>();
  let stderr = '';
  const warnings: string[] = [];
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  if (child.stdout) {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let entry: { job?: string; msg?: string; level?: number } = {};
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.job && entry.msg?.startsWith('job lock taken')) locks.add(entry.job);
      if ((entry.level ?? 0) >= 40) warnings.push(line);
    });
  }
  return {
    child,
    exited,
    locks,
    trouble: () => [stderr, ...warnings.slice(-5)].filter(Boolean).join('\n'),
  };
}

/** Resolves once the instance has logged taking the Ethereum watcher's lock. */
function tookEthereumLock(instance: Instance, name: string) {
  return until(
    `instance ${name} taking the chain-ethereum job lock`,
    async () => {
      if (instance.child.exitCode !== null || instance.child.signalCode) {
        throw new Error(`instance ${name} exited at start\n${instance.trouble()}`);
      }
      return instance.locks.has('chain-ethereum') ? true : null;
    },
    { timeoutMs: 20_000, seen: () => `locks logged: ${[...instance.locks].join(', ') || 'none'}` },
  );
}

/** The backends holding the Ethereum watcher's job lock. */
async function ethereumLockHolders(): Promise<number> {
  const { rows } = await watch.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objid = $2::int::oid
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [JOB_LOCK_NAMESPACE, JOB_LOCK_KEYS['chain-ethereum']],
  );
  return rows[0]?.n ?? 0;
}

describe('the Ethereum watcher killed with SIGKILL in the middle of a catch-up', () => {
  it('is taken over by another instance, and every deposit is recorded and credited exactly once', async () => {
    const startedAt = Date.now();
    addresses = [];
    for (const user of customers) addresses.push(await ethAddressOf(user));
    expect(new Set(addresses.map((a) => a.toLowerCase())).size).toBe(CUSTOMERS);

    // The app watched this chain before any deposit: its cursor is at the node's tip then.
    const watcher = t.services.chainWatchers.find((w) => w.chain === 'ethereum');
    if (!watcher) throw new Error('the app watches no Ethereum');
    expect(await watcher.tick()).toMatchObject({ state: 'ok' });
    const start = await cursorHeight();
    if (start === null) throw new Error('no Ethereum cursor after a tick');

    const sent = await fillChain();
    const tip = Number(await chain.client.getBlockNumber({ cacheTime: 0 }));
    expect(tip).toBe(start + DEPOSIT_BLOCKS + CONFIRMATIONS);
    const filledAt = Date.now();
    const { rows: outboxBefore } = await watch.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox WHERE kind = 'mail'",
    );

    // Instance A takes the watcher's lock and starts catching up.
    const a = startInstance();
    await tookEthereumLock(a, 'A');
    const killAt = await until(
      `instance A's cursor passing ${start + KILL_AFTER_BLOCKS}`,
      async () => {
        const h = await cursorHeight();
        return h !== null && h >= start + KILL_AFTER_BLOCKS ? h : null;
      },
      { timeoutMs: 30_000, intervalMs: 10, seen: () => a.trouble() },
    );
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    const killedAt = Date.now();
    // Where A really stopped (a block may have committed between the poll and the kill):
    // strictly inside the scan, with some deposits credited, some recorded but still
    // confirming (B must complete those, not record them again) and the rest not yet seen,
    // or this test would prove nothing about a takeover.
    const atKill = await cursorHeight();
    const creditedAtKill = await depositCount('credited');
    const confirmingAtKill = await depositCount('confirming');
    expect(atKill, `A's cursor when it was killed (polled ${killAt})`).toBeGreaterThan(start);
    expect(atKill, 'A finished the catch-up before the kill; make the chain longer').toBeLessThan(
      tip,
    );
    expect(creditedAtKill).toBeGreaterThan(0);
    expect(confirmingAtKill).toBeGreaterThan(0);
    expect(creditedAtKill + confirmingAtKill).toBeLessThan(sent.length);
    // The killed instance's session is gone, and its lock with it.
    await until(
      'the lock of the killed instance released',
      async () => ((await ethereumLockHolders()) === 0 ? true : null),
      { timeoutMs: 10_000 },
    );

    // Instance B: the same command started again.
    const b = startInstance();
    await tookEthereumLock(b, 'B');
    expect(await ethereumLockHolders()).toBe(1);
    await until(
      `instance B's cursor reaching the tip ${tip} with every deposit credited`,
      async () =>
        (await cursorHeight()) === tip && (await depositCount('credited')) >= sent.length
          ? true
          : null,
      {
        timeoutMs: 40_000,
        intervalMs: 100,
        seen: () => b.trouble(),
      },
    );
    const doneAt = Date.now();

    // Every transfer sent is one chain deposit, of the right customer, asset and amount,
    // credited; no other deposit exists.
    const { rows: deposits } = await watch.query<{
      tx_hash: string;
      output_index: number;
      user_id: string;
      asset_id: string;
      amount_minor: string;
      status: string;
      transaction_id: string | null;
    }>(
      `SELECT tx_hash, output_index, user_id, asset_id, amount_minor::text, status, transaction_id
         FROM chain_deposits WHERE chain = 'ethereum'`,
    );
    const key = (hash: string, userId: string, assetId: string, amount: bigint | string) =>
      `${hash.toLowerCase()} ${userId} ${assetId} ${amount}`;
    expect(
      deposits.map((d) => key(d.tx_hash, d.user_id, d.asset_id, d.amount_minor)).sort(),
    ).toEqual(
      sent
        .map((s) => key(s.txHash, customers[s.to]?.userId ?? '', s.assetId, s.amountMinor))
        .sort(),
    );
    expect(new Set(deposits.map((d) => `${d.tx_hash} ${d.output_index}`)).size).toBe(sent.length);
    expect(deposits.filter((d) => d.status !== 'credited')).toEqual([]);

    // Each is credited through exactly one ledger row of its own, completed, for its amount;
    // the customers have no other ledger rows.
    const { rows: ledger } = await watch.query<{
      id: string;
      user_id: string;
      asset_id: string;
      status: string;
      amount: string;
      deposits: number;
    }>(
      `SELECT t.id, t.user_id, t.asset_id, t.status, trim_scale(t.crypto_amount)::text AS amount,
              (SELECT count(*)::int FROM chain_deposits d WHERE d.transaction_id = t.id) AS deposits
         FROM transactions t WHERE t.user_id = ANY($1::uuid[])`,
      [customers.map((c) => c.userId)],
    );
    expect(ledger).toHaveLength(sent.length);
    expect(ledger.filter((row) => row.deposits !== 1 || row.status !== 'completed')).toEqual([]);
    const byId = new Map(ledger.map((row) => [row.id, row]));
    for (const d of deposits) {
      const row = byId.get(d.transaction_id ?? '');
      expect(row, `ledger row of deposit ${d.tx_hash}:${d.output_index}`).toMatchObject({
        user_id: d.user_id,
        asset_id: d.asset_id,
        amount: fromMinor(d.asset_id as 'ETH' | 'USDT-ERC20', BigInt(d.amount_minor)),
      });
    }

    // What each customer sees: balances equal to the sums sent to them.
    for (const [i, user] of customers.entries()) {
      for (const assetId of ['ETH', 'USDT-ERC20'] as const) {
        const total = sent
          .filter((s) => s.to === i && s.assetId === assetId)
          .reduce((sum, s) => sum + s.amountMinor, 0n);
        expect(
          (await walletOf(t, user.userId, assetId))?.balance,
          `${assetId} of customer ${i}`,
        ).toBe(fromMinor(assetId, total));
      }
    }
    // One arrival mail per deposit, none twice (a killed block's mails rolled back with it).
    const { rows: outboxAfter } = await watch.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox WHERE kind = 'mail'",
    );
    expect((outboxAfter[0]?.n ?? 0) - (outboxBefore[0]?.n ?? 0)).toBe(sent.length);
    await expectReconciled(t);

    // B holds the lock and follows the node at its tip; A is gone.
    expect(await cursorHeight()).toBe(tip);
    expect(b.locks.has('chain-ethereum')).toBe(true);
    expect(await ethereumLockHolders()).toBe(1);

    console.log(
      `Chain failover: ${sent.length} deposits in ${DEPOSIT_BLOCKS} blocks (filled in ${filledAt - startedAt} ms); ` +
        `A killed at block ${(atKill ?? 0) - start} of ${tip - start} with ${creditedAtKill} credited and ${confirmingAtKill} confirming; ` +
        `B caught up ${doneAt - killedAt} ms after the kill`,
    );
  }, 90_000);
});
