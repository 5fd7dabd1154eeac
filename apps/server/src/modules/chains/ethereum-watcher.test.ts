import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type Anvil, startAnvil } from '@server-test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '@server-test/fixtures/ethereum/test-chain';
import {
  call,
  createTestApp,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
} from '@server-test/helpers';
import { expectReconciled, setSetting, walletOf } from '@server-test/money-helpers';
import { type Address, type Hash, type Hex, parseEther } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONFIRMATIONS_SQL } from './chain-deposits.repository';
import type { ChainWatcher } from './chain-watcher';

/**
 * End to end on a real node: the app is configured for anvil as an operator would
 * (ETH_RPC_URL, ETH_XPUB, USDT_ERC20_CONTRACT), a customer's ETH address is derived on their
 * first request, and the app's own Ethereum watcher credits ETH and USDT (a 6-decimal test
 * token) paid to it, and USDT paid to an address staff entered, each through the ledger
 * once, after `confirmations_eth`; a reorg before the credit drops a deposit, one after it
 * raises an alert and debits nothing.
 */

const CONFIRMATIONS = 4;

// The operator's account key; the mnemonic (and any private key) exists only in this test.
const ACCOUNT = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
).derive("m/44'/60'/0'");
// m/44'/60'/0'/0/0 of that mnemonic, as wallets' test vectors give it.
const DERIVED = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
// Bob's address, entered by staff for USDT-ERC20 (no derivation index).
const BOB_ADDRESS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
// Nobody's deposit address.
const UNWATCHED = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let anvil: Anvil;
let chain: TestChain;
let usdt: Address;
let watcher: ChainWatcher;

beforeAll(async () => {
  anvil = await startAnvil();
  chain = testChain(anvil);
  usdt = await chain.deployToken(6);
  t = await createTestApp({
    ETH_RPC_URL: anvil.url,
    ETH_XPUB: ACCOUNT.publicExtendedKey,
    USDT_ERC20_CONTRACT: usdt,
  });
  [alice, bob] = [await verifiedCustomer(t), await verifiedCustomer(t)];
  await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address) VALUES ($1, 'USDT', 'erc20', $2)`,
    [bob.userId, BOB_ADDRESS],
  );
  const ethereum = t.services.chainWatchers.find((w) => w.chain === 'ethereum');
  if (!ethereum) throw new Error('the app watches no Ethereum');
  watcher = ethereum;
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

async function tick() {
  const result = await watcher.tick();
  expect(result).toMatchObject({
    state: 'ok',
    tip: Number(await chain.client.getBlockNumber({ cacheTime: 0 })),
  });
  return result;
}

async function depositsOf(txHash: Hash) {
  const { rows } = await t.services.pool.query<{
    status: string;
    confirmations: number;
    asset_id: string;
    amount_minor: string;
    user_id: string;
  }>(
    `SELECT status, ${CONFIRMATIONS_SQL} AS confirmations, asset_id, amount_minor::text, user_id FROM chain_deposits d LEFT JOIN chain_cursors c USING (chain)
      WHERE chain = 'ethereum' AND tx_hash = $1 ORDER BY output_index`,
    [txHash],
  );
  return rows;
}

async function ledgerRowsOf(txHash: Hash) {
  const { rows } = await t.services.pool.query<{
    status: string;
    asset_id: string;
    crypto_amount: string;
  }>(
    `SELECT status, asset_id, trim_scale(crypto_amount)::text AS crypto_amount FROM transactions
      WHERE transaction_type = 'deposit' AND transaction_hash = $1`,
    [txHash],
  );
  return rows;
}

/** The row of Alice's history (what her History page lists) for a chain transaction. */
async function historyItem(txHash: Hash) {
  const res = await call(t, { url: '/api/transactions?limit=50', cookie: alice.cookie });
  expect(res.statusCode).toBe(200);
  const items = res.json().items as Array<{
    transactionHash: string | null;
    status: string;
    amount: string;
    confirmations?: { current: number; required: number } | null;
  }>;
  return items.filter((i) => i.transactionHash?.toLowerCase() === txHash.toLowerCase());
}

async function balances() {
  const of = async (user: SignedInUser, asset: 'ETH' | 'USDT-ERC20') =>
    (await walletOf(t, user.userId, asset))?.balance ?? '0';
  return {
    aliceEth: await of(alice, 'ETH'),
    aliceUsdt: await of(alice, 'USDT-ERC20'),
    bobUsdt: await of(bob, 'USDT-ERC20'),
  };
}

async function arrivalMails(user: SignedInUser): Promise<string[]> {
  await t.services.outbox.deliver({ wait: 'all' });
  return mailsTo(t, user.email).filter((m) => m.includes('deposit has arrived'));
}

describe('Ethereum deposits on anvil through the watcher', () => {
  it(`credits ETH and USDT payments after ${CONFIRMATIONS} confirmations, exactly once`, async () => {
    // Alice's first look at her deposit addresses derives her Ethereum address; USDT-ERC20
    // shows the same one.
    const res = await call(t, { url: '/api/deposit-addresses', cookie: alice.cookie });
    expect(res.statusCode).toBe(200);
    const shown = (res.json().addresses as { assetId: string | null; address: string }[])
      .filter((a) => a.assetId === 'ETH' || a.assetId === 'USDT-ERC20')
      .map((a) => [a.assetId, a.address]);
    expect(Object.fromEntries(shown)).toEqual({ ETH: DERIVED, 'USDT-ERC20': DERIVED });
    await tick();
    const before = await balances();
    expect(before).toEqual({ aliceEth: '0', aliceUsdt: '0', bobUsdt: '0' });

    const eth = await chain.sendEth(DERIVED, parseEther('1.25'));
    const token = await chain.sendToken(usdt, DERIVED, 250_500_000n);
    const batch = await chain.batchToken(usdt, [BOB_ADDRESS, UNWATCHED], [40_000_000n, 1n]);
    await chain.sendEth(UNWATCHED, parseEther('9'));
    await anvil.mine();
    await tick();
    expect(await depositsOf(eth)).toMatchObject([
      {
        status: 'confirming',
        confirmations: 1,
        asset_id: 'ETH',
        amount_minor: '1250000000000000000',
        user_id: alice.userId,
      },
    ]);
    expect(await depositsOf(token)).toMatchObject([
      {
        status: 'confirming',
        confirmations: 1,
        asset_id: 'USDT-ERC20',
        amount_minor: '250500000',
        user_id: alice.userId,
      },
    ]);
    expect(await depositsOf(batch)).toMatchObject([
      {
        status: 'confirming',
        confirmations: 1,
        asset_id: 'USDT-ERC20',
        amount_minor: '40000000',
        user_id: bob.userId,
      },
    ]);
    expect(await ledgerRowsOf(eth)).toEqual([
      { status: 'pending', asset_id: 'ETH', crypto_amount: '1.25' },
    ]);
    expect(await balances()).toEqual(before);
    // Alice sees both at once in her history: pending, "Confirming 1 of 4".
    expect(await historyItem(eth)).toMatchObject([
      { status: 'pending', amount: '1.25', confirmations: { current: 1, required: CONFIRMATIONS } },
    ]);
    expect(await historyItem(token)).toMatchObject([
      {
        status: 'pending',
        amount: '250.5',
        confirmations: { current: 1, required: CONFIRMATIONS },
      },
    ]);

    await anvil.mine(CONFIRMATIONS - 2);
    await tick();
    for (const hash of [eth, token, batch]) {
      expect(await depositsOf(hash)).toMatchObject([
        { status: 'confirming', confirmations: CONFIRMATIONS - 1 },
      ]);
    }
    expect(await balances()).toEqual(before);

    // The including block counts as 1: this block makes the confirmations.
    await anvil.mine();
    await tick();
    for (const hash of [eth, token, batch]) {
      expect(await depositsOf(hash)).toMatchObject([
        { status: 'credited', confirmations: CONFIRMATIONS },
      ]);
    }
    expect(await ledgerRowsOf(eth)).toEqual([
      { status: 'completed', asset_id: 'ETH', crypto_amount: '1.25' },
    ]);
    expect(await ledgerRowsOf(token)).toEqual([
      { status: 'completed', asset_id: 'USDT-ERC20', crypto_amount: '250.5' },
    ]);
    expect(await ledgerRowsOf(batch)).toEqual([
      { status: 'completed', asset_id: 'USDT-ERC20', crypto_amount: '40' },
    ]);
    const [shownEth] = await historyItem(eth);
    expect(shownEth).toMatchObject({ status: 'completed', amount: '1.25' });
    expect(shownEth?.confirmations ?? null).toBeNull();
    const credited = { aliceEth: '1.25', aliceUsdt: '250.5', bobUsdt: '40' };
    expect(await balances()).toEqual(credited);
    expect(await arrivalMails(alice)).toHaveLength(2);
    expect(await arrivalMails(bob)).toHaveLength(1);

    // More blocks and ticks: nothing is credited twice.
    await anvil.mine(3);
    await tick();
    await tick();
    for (const hash of [eth, token, batch]) expect(await ledgerRowsOf(hash)).toHaveLength(1);
    expect(await balances()).toEqual(credited);
    expect(await arrivalMails(alice)).toHaveLength(2);
    expect(await arrivalMails(bob)).toHaveLength(1);
  });

  it('drops a deposit whose block a reorg replaces before credit, and credits it once when it is mined again', async () => {
    await tick();
    const before = await balances();
    const snapshot = await anvil.rpc<Hex>('evm_snapshot');
    const paid = await chain.sendEth(DERIVED, parseEther('0.5'));
    const raw = await anvil.rpc<Hex>('eth_getRawTransactionByHash', [paid]);
    await anvil.mine();
    await tick();
    expect(await depositsOf(paid)).toMatchObject([{ status: 'confirming', confirmations: 1 }]);

    // The chain goes back before the payment and grows longer without it.
    expect(await anvil.rpc('evm_revert', [snapshot])).toBe(true);
    await anvil.mine(2);
    await tick();
    expect(await depositsOf(paid)).toMatchObject([{ status: 'orphaned' }]);
    expect(await ledgerRowsOf(paid)).toEqual([
      { status: 'failed', asset_id: 'ETH', crypto_amount: '0.5' },
    ]);
    expect(await balances()).toEqual(before);

    // The same signed transaction is broadcast again and mined in a later block.
    expect(await anvil.rpc('eth_sendRawTransaction', [raw])).toBe(paid);
    await anvil.mine();
    await tick();
    expect(await depositsOf(paid)).toMatchObject([{ status: 'confirming', confirmations: 1 }]);
    expect(await balances()).toEqual(before);
    await anvil.mine(CONFIRMATIONS - 1);
    await tick();
    expect(await depositsOf(paid)).toMatchObject([
      { status: 'credited', confirmations: CONFIRMATIONS },
    ]);
    expect(await ledgerRowsOf(paid)).toEqual([
      { status: 'completed', asset_id: 'ETH', crypto_amount: '0.5' },
    ]);
    expect(await balances()).toEqual({ ...before, aliceEth: '1.75' });
  });

  it('never debits a credited deposit a deeper reorg takes off the chain: it raises an alert', async () => {
    await tick();
    const snapshot = await anvil.rpc<Hex>('evm_snapshot');
    const paid = await chain.sendToken(usdt, DERIVED, 7_000_000n);
    await anvil.mine(CONFIRMATIONS);
    await tick();
    expect(await depositsOf(paid)).toMatchObject([{ status: 'credited' }]);
    const credited = await balances();
    expect(credited.aliceUsdt).toBe('257.5');

    expect(await anvil.rpc('evm_revert', [snapshot])).toBe(true);
    await anvil.mine(CONFIRMATIONS + 1);
    await tick();
    expect(await depositsOf(paid)).toMatchObject([{ status: 'reversed-on-chain' }]);
    expect(await ledgerRowsOf(paid)).toEqual([
      { status: 'completed', asset_id: 'USDT-ERC20', crypto_amount: '7' },
    ]);
    expect(await balances()).toEqual(credited);
    const { rows } = await t.services.pool.query<{ action: string; reason: string }>(
      `SELECT action, reason FROM audit_log WHERE action = 'chain.deposit.reversed'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.reason).toContain(paid);
  });
});
