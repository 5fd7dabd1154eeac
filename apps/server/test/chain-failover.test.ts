import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fromMinor, type TAssetId } from '@coffer/shared';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Address as BitcoinAddress, OutScript, p2wpkh, Transaction } from '@scure/btc-signer';
import pg from 'pg';
import { type Address, encodeFunctionData, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JOB_LOCK_KEYS, JOB_LOCK_NAMESPACE } from '../src/lib/job-lock';
import { startFakeFeeds } from './fake-feeds';
import { type Anvil, startAnvil } from './fixtures/ethereum/anvil';
import { type TestChain, testChain } from './fixtures/ethereum/test-chain';
import { testTokenArtifact } from './fixtures/ethereum/test-token';
import { call, createTestApp, type SignedInUser, type TestApp, verifiedCustomer } from './helpers';
import { type LitecoinNode, startLitecoinNode, WALLET } from './litecoin-node';
import { expectReconciled, setSetting, walletOf } from './money-helpers';

/**
 * Failover of a chain watcher: the instance following the node is killed with
 * SIGKILL in the middle of a long catch-up, another instance on the same database takes the
 * chain's job lock and carries on from the cursor, and every deposit on the chain ends up
 * recorded once and credited once, whatever the killed instance had half-done.
 */

const CONFIRMATIONS = 3;
const CUSTOMERS = 4;
/** Instance A is killed once its cursor is this far past the start (some deposits credited). */
const KILL_AFTER_BLOCKS = 20;

// The operator's account keys, from the test mnemonic the other watcher tests use.
const SEED = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const ETH_ACCOUNT = HDKey.fromMasterSeed(SEED).derive("m/44'/60'/0'");
const BTC_ACCOUNT = HDKey.fromMasterSeed(SEED).derive("m/84'/1'/0'");
const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };

const root = path.resolve(import.meta.dirname, '../../..');

type ChainName = 'ethereum' | 'bitcoin';
/** One transfer to a customer (by index) as the test sent it. */
type Sent = { to: number; assetId: TAssetId; amountMinor: bigint; txHash: string };

let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];

beforeAll(async () => {
  feeds = await startFakeFeeds();
});

/** No instance outlives its test: the next one must find every lock free. */
async function killChildren() {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && !child.signalCode) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    }
  }
}
afterEach(killChildren);

afterAll(async () => {
  await killChildren();
  await feeds?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Polls until `check` gives a value, or fails saying what it waited for and what it saw. */
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
  /** Its stderr and last warnings, for a failure message. */
  trouble(): string;
};

/**
 * Another Coffer instance on the test's database: a child process running the server's
 * services and timed jobs (job-instance.ts) with the chain configured, as an operator's
 * second server would be. Its JSON log says which job locks it takes.
 */
function startInstance(t: TestApp, chainEnv: Record<string, string>): Instance {
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
      LOG_LEVEL: 'info',
      ...chainEnv,
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

type Scenario = {
  t: TestApp;
  chain: ChainName;
  /** What an instance needs in its environment to watch the chain. */
  env: Record<string, string>;
  customers: SignedInUser[];
  /** The assets paid on this chain, as the deposit page lists them. */
  assets: readonly TAssetId[];
  /**
   * Pays the customers' addresses over many blocks and mines past the confirmations of the
   * last payment; what was sent.
   */
  fill(addresses: string[]): Promise<Sent[]>;
  tip(): Promise<number>;
};

/**
 * The whole story on one chain: customers' addresses derived as they look at their deposit
 * page, the app's cursor placed at the node's tip, the chain filled, instance A killed with
 * SIGKILL partway through its catch-up, instance B started and followed to the tip; then
 * every payment must be one deposit, credited through one ledger row, once.
 */
async function killMidScanAndTakeOver(s: Scenario): Promise<string> {
  const { t, chain } = s;
  // A connection of the test's own for polling, so a busy pool never delays a kill.
  const watch = new pg.Client({ connectionString: t.databaseUrl });
  await watch.connect();
  try {
    const cursorHeight = async (): Promise<number | null> => {
      const { rows } = await watch.query<{ height: string }>(
        'SELECT height::text FROM chain_cursors WHERE chain = $1',
        [chain],
      );
      return rows[0] ? Number(rows[0].height) : null;
    };
    const depositCount = async (status: 'credited' | 'confirming') => {
      const { rows } = await watch.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM chain_deposits WHERE chain = $1 AND status = $2',
        [chain, status],
      );
      return rows[0]?.n ?? 0;
    };
    /** The backends holding this chain's watcher lock. */
    const lockHolders = async () => {
      const { rows } = await watch.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND classid = $1::int::oid AND objid = $2::int::oid
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [JOB_LOCK_NAMESPACE, JOB_LOCK_KEYS[`chain-${chain}`]],
      );
      return rows[0]?.n ?? 0;
    };
    const mails = async () => {
      const { rows } = await watch.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM outbox WHERE kind = 'mail'",
      );
      return rows[0]?.n ?? 0;
    };
    const tookLock = (instance: Instance, name: string) =>
      until(
        `instance ${name} taking the chain-${chain} job lock`,
        async () => {
          if (instance.child.exitCode !== null || instance.child.signalCode) {
            throw new Error(`instance ${name} exited at start\n${instance.trouble()}`);
          }
          return instance.locks.has(`chain-${chain}`) ? true : null;
        },
        {
          timeoutMs: 20_000,
          seen: () => `locks logged: ${[...instance.locks].join(', ') || 'none'}`,
        },
      );

    const startedAt = Date.now();
    // Each customer's address, derived on their first look at their deposit page.
    const addresses: string[] = [];
    for (const user of s.customers) {
      const res = await call(t, { url: '/api/deposit-addresses', cookie: user.cookie });
      expect(res.statusCode).toBe(200);
      const shown = (res.json().addresses as { assetId: string | null; address: string }[])
        .filter((a) => a.assetId !== null && s.assets.includes(a.assetId as TAssetId))
        .map((a) => [a.assetId, a.address] as const);
      expect(shown.map(([asset]) => asset).sort()).toEqual([...s.assets].sort());
      // One address per chain: every asset of the chain shows the same.
      expect(new Set(shown.map(([, address]) => address)).size).toBe(1);
      addresses.push(shown[0]?.[1] ?? '');
    }
    expect(new Set(addresses.map((a) => a.toLowerCase())).size).toBe(s.customers.length);

    // The app watched this chain before any payment: its cursor is at the node's tip then.
    const watcher = t.services.chainWatchers.find((w) => w.chain === chain);
    if (!watcher) throw new Error(`the app watches no ${chain}`);
    const first = await watcher.tick();
    if (first.state !== 'ok') throw new Error(`the app's first tick: ${JSON.stringify(first)}`);
    const start = await cursorHeight();
    if (start === null) throw new Error(`no ${chain} cursor after a tick`);

    const sent = await s.fill(addresses);
    const tip = await s.tip();
    const filledAt = Date.now();
    const mailsBefore = await mails();

    // Instance A takes the watcher's lock and starts catching up.
    const a = startInstance(t, s.env);
    await tookLock(a, 'A');
    const polledAt = await until(
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
    expect(atKill, `A's cursor when it was killed (polled at ${polledAt})`).toBeGreaterThan(start);
    expect(atKill, 'A finished the catch-up before the kill: fill more blocks').toBeLessThan(tip);
    expect(creditedAtKill).toBeGreaterThan(0);
    expect(confirmingAtKill).toBeGreaterThan(0);
    expect(creditedAtKill + confirmingAtKill).toBeLessThan(sent.length);
    // The killed instance's session is gone, and its lock with it.
    await until(
      'the lock of the killed instance released',
      async () => ((await lockHolders()) === 0 ? true : null),
      { timeoutMs: 10_000 },
    );

    // Instance B: the same command started again.
    const b = startInstance(t, s.env);
    await tookLock(b, 'B');
    let seenHeight: number | null = null;
    await until(
      `instance B's cursor reaching the tip ${tip}`,
      async () => {
        seenHeight = await cursorHeight();
        return seenHeight === tip ? true : null;
      },
      {
        timeoutMs: 40_000,
        intervalMs: 100,
        seen: () =>
          `cursor ${start} at the start, ${atKill} at the kill, ${seenHeight} last seen; instance B's log: ${b.trouble() || 'quiet'}`,
      },
    );
    // Every deposit is past its confirmations at the tip: given a moment, none is left
    // confirming. One that stays so is named by the assertions below, not by a timeout here.
    await until(
      'no deposit left confirming',
      async () => ((await depositCount('confirming')) === 0 ? true : null),
      { timeoutMs: 5_000 },
    ).catch(() => {});
    const doneAt = Date.now();

    // Every transfer sent is one chain deposit, of the right customer, asset and amount,
    // credited; no other deposit exists.
    const { rows: deposits } = await watch.query<{
      tx_hash: string;
      output_index: number;
      user_id: string;
      asset_id: TAssetId;
      amount_minor: string;
      status: string;
      transaction_id: string | null;
    }>(
      `SELECT tx_hash, output_index, user_id, asset_id, amount_minor::text, status, transaction_id
         FROM chain_deposits WHERE chain = $1`,
      [chain],
    );
    const key = (hash: string, userId: string, assetId: string, amount: bigint | string) =>
      `${hash.toLowerCase()} ${userId} ${assetId} ${amount}`;
    const found = deposits.map((d) => key(d.tx_hash, d.user_id, d.asset_id, d.amount_minor));
    const expected = sent.map((p) =>
      key(p.txHash, s.customers[p.to]?.userId ?? '', p.assetId, p.amountMinor),
    );
    // First in short (how many are missing or extra, and a few of them), then in full.
    const left = [...found];
    const missing = expected.filter((k) => {
      const at = left.indexOf(k);
      if (at < 0) return true;
      left.splice(at, 1);
      return false;
    });
    expect({
      missing: missing.length,
      extra: left.length,
      examples: [...missing.slice(0, 3), ...left.slice(0, 3)],
    }).toEqual({ missing: 0, extra: 0, examples: [] });
    expect(found.sort()).toEqual(expected.sort());
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
      [s.customers.map((c) => c.userId)],
    );
    expect(ledger).toHaveLength(sent.length);
    expect(ledger.filter((row) => row.deposits !== 1 || row.status !== 'completed')).toEqual([]);
    const byId = new Map(ledger.map((row) => [row.id, row]));
    for (const d of deposits) {
      expect(
        byId.get(d.transaction_id ?? ''),
        `ledger row of deposit ${d.tx_hash}:${d.output_index}`,
      ).toMatchObject({
        user_id: d.user_id,
        asset_id: d.asset_id,
        amount: fromMinor(d.asset_id, BigInt(d.amount_minor)),
      });
    }

    // What each customer sees: balances equal to the sums sent to them.
    for (const [i, user] of s.customers.entries()) {
      for (const assetId of s.assets) {
        const total = sent
          .filter((p) => p.to === i && p.assetId === assetId)
          .reduce((sum, p) => sum + p.amountMinor, 0n);
        expect(
          (await walletOf(t, user.userId, assetId))?.balance,
          `${assetId} of customer ${i}`,
        ).toBe(fromMinor(assetId, total));
      }
    }
    // One arrival mail per deposit, none twice (a killed block's mails rolled back with it).
    expect((await mails()) - mailsBefore).toBe(sent.length);
    await expectReconciled(t);

    // B holds the lock and follows the node at its tip.
    expect(await cursorHeight()).toBe(tip);
    expect(b.locks.has(`chain-${chain}`)).toBe(true);
    expect(b.child.exitCode).toBeNull();
    expect(await lockHolders()).toBe(1);

    return (
      `${chain} failover: ${sent.length} deposits in ${tip - start} blocks (set up and filled in ${filledAt - startedAt} ms); ` +
      `A killed at block ${(atKill ?? 0) - start} with ${creditedAtKill} credited and ${confirmingAtKill} confirming; ` +
      `B caught up ${doneAt - killedAt} ms after the kill`
    );
  } finally {
    await watch.end();
  }
}

/** Three customers of every four get a payment per block, each amount its own. */
const picked = (block: number) => [...Array(CUSTOMERS).keys()].filter((i) => (block + i) % 4 !== 0);

describe('the Ethereum watcher killed with SIGKILL in the middle of a catch-up on anvil', () => {
  /** Blocks holding deposits: enough that a catch-up takes seconds, so a kill lands in it. */
  const DEPOSIT_BLOCKS = 200;
  let t: TestApp;
  let anvil: Anvil;
  let chain: TestChain;
  let usdt: Address;
  let env: Record<string, string>;
  const customers: SignedInUser[] = [];

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = testChain(anvil);
    usdt = await chain.deployToken(6);
    env = {
      ETH_RPC_URL: anvil.url,
      ETH_XPUB: ETH_ACCOUNT.publicExtendedKey,
      USDT_ERC20_CONTRACT: usdt,
    };
    t = await createTestApp({
      ...env,
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
    });
    await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await verifiedCustomer(t));
  }, 60_000);

  afterAll(async () => {
    await anvil?.stop();
    await t?.close();
  });

  /**
   * Per block one `batchTransfer` of the token to some customers (now and then one of them
   * twice in the same transaction) and, every other block, plain ETH to one of them. Signed
   * here with counted nonces: hundreds of blocks in a second or two.
   */
  async function fill(addresses: string[]): Promise<Sent[]> {
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
      const to = picked(b);
      if (b % 10 === 0) to.push(b % CUSTOMERS);
      const amounts = to.map((i, k) => BigInt(b * 1_000_000 + i * 1_000 + k + 1));
      const tokenTx = await send({
        to: usdt,
        gas: 60_000n + 40_000n * BigInt(to.length),
        data: encodeFunctionData({
          abi,
          functionName: 'batchTransfer',
          args: [to.map((i) => addresses[i] as Address), amounts],
        }),
      });
      to.forEach((i, k) => {
        sent.push({ to: i, assetId: 'USDT-ERC20', amountMinor: amounts[k] ?? 0n, txHash: tokenTx });
      });
      if (b % 2 === 0) {
        const i = (b / 2) % CUSTOMERS;
        const wei = BigInt(b + 1) * 10n ** 14n + BigInt(i);
        const ethTx = await send({ to: addresses[i] as Address, value: wei, gas: 21_000n });
        sent.push({ to: i, assetId: 'ETH', amountMinor: wei, txHash: ethTx });
      }
      await anvil.mine();
    }
    // Past the confirmations of the last deposit: at the tip, every one of them is due.
    await anvil.mine(CONFIRMATIONS);
    return sent;
  }

  it('is taken over by another instance; every ETH and USDT deposit is recorded and credited exactly once', async () => {
    const summary = await killMidScanAndTakeOver({
      t,
      chain: 'ethereum',
      env,
      customers,
      assets: ['ETH', 'USDT-ERC20'],
      fill,
      tip: async () => Number(await chain.client.getBlockNumber({ cacheTime: 0 })),
    });
    console.log(summary);
  }, 90_000);
});

describe('the Bitcoin watcher killed with SIGKILL in the middle of a catch-up on litecoind regtest', () => {
  const DEPOSIT_BLOCKS = 200;
  let t: TestApp;
  let node: LitecoinNode;
  let env: Record<string, string>;
  const customers: SignedInUser[] = [];

  beforeAll(async () => {
    node = await startLitecoinNode();
    // Coinbase outputs mature after 100 blocks: 101 give the node's wallet coins to spend.
    await node.mine(101);
    env = {
      BTC_RPC_URL: node.rpcUrl,
      BTC_XPUB: BTC_ACCOUNT.publicExtendedKey,
      BTC_NETWORK: 'regtest',
    };
    t = await createTestApp({
      ...env,
      PRICE_FEED_URL: feeds.priceFeedUrl,
      FX_FEED_URL: feeds.fxFeedUrl,
    });
    await setSetting(t, 'confirmations_btc', String(CONFIRMATIONS));
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await verifiedCustomer(t));
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await t?.close();
  });

  /**
   * Per block one transaction paying some customers and, every other block, a second one to
   * one of them, each spending the change of the one before. They are signed here by a payer
   * key of the test's own (the node's wallet takes tens of milliseconds a payment, too slow
   * for hundreds) and pay the scripts of the `bcrt1…` addresses Coffer shows: Litecoin Core
   * writes its own address format (rltc1…) for the same scripts.
   */
  async function fill(addresses: string[]): Promise<Sent[]> {
    const payer = HDKey.fromMasterSeed(SEED).derive("m/84'/1'/1'/0/0");
    if (!payer.publicKey || !payer.privateKey) throw new Error('no payer key');
    const payerScript = p2wpkh(payer.publicKey, REGTEST).script;
    const scripts = addresses.map((a) => OutScript.encode(BitcoinAddress(REGTEST).decode(a)));
    // The node's wallet funds the payer once, by the node's own address for its script.
    const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
      hex.encode(payerScript),
    ]);
    const payerAddress = decoded.address ?? decoded.addresses?.[0];
    if (!payerAddress) throw new Error('the node printed no address for the payer');
    const funding = await node.rpc<string>('sendtoaddress', [payerAddress, '10'], WALLET);
    const fundingTx = await node.rpc<{ vout: { n: number; scriptPubKey: { hex: string } }[] }>(
      'getrawtransaction',
      [funding, true],
    );
    const fundingOut = fundingTx.vout.find((o) => o.scriptPubKey.hex === hex.encode(payerScript));
    if (!fundingOut) throw new Error('the funding transaction does not pay the payer');
    let coin = { txid: funding, index: fundingOut.n, amount: 1_000_000_000n };

    const sent: Sent[] = [];
    const pay = async (outputs: { to: number; amount: bigint }[]) => {
      const tx = new Transaction();
      tx.addInput({
        txid: coin.txid,
        index: coin.index,
        witnessUtxo: { script: payerScript, amount: coin.amount },
      });
      for (const o of outputs) tx.addOutput({ script: scripts[o.to], amount: o.amount });
      // Well above the minimum relay fee for a transaction this size.
      const change = coin.amount - outputs.reduce((sum, o) => sum + o.amount, 0n) - 5_000n;
      tx.addOutput({ script: payerScript, amount: change });
      tx.sign(payer.privateKey as Uint8Array);
      tx.finalize();
      const txid = await node.rpc<string>('sendrawtransaction', [tx.hex]);
      coin = { txid, index: outputs.length, amount: change };
      for (const o of outputs) {
        sent.push({ to: o.to, assetId: 'BTC', amountMinor: o.amount, txHash: txid });
      }
    };
    for (let b = 0; b < DEPOSIT_BLOCKS; b++) {
      await pay(
        picked(b).map((i) => ({ to: i, amount: BigInt(100_000 + b * 1_000 + i * 10 + 1) })),
      );
      if (b % 2 === 0) {
        await pay([{ to: (b / 2) % CUSTOMERS, amount: BigInt(5_000_000 + b * 100) }]);
      }
      await node.mine(1);
    }
    await node.mine(CONFIRMATIONS);
    return sent;
  }

  it('is taken over by another instance; every BTC deposit is recorded and credited exactly once', async () => {
    const summary = await killMidScanAndTakeOver({
      t,
      chain: 'bitcoin',
      env,
      customers,
      assets: ['BTC'],
      fill,
      tip: () => node.rpc<number>('getblockcount'),
    });
    console.log(summary);
  }, 90_000);
});
