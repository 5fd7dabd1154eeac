import { type Address, type Hash, type Hex, parseEther } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Anvil, startAnvil } from '../../../test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '../../../test/fixtures/ethereum/test-chain';
import {
  createTestApp,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
} from '../../../test/helpers';
import { expectReconciled, setSetting, walletOf } from '../../../test/money-helpers';
import { createChainWatcher } from './chain-watcher';
import { EthereumAdapter } from './ethereum-adapter';

/**
 * End to end on a real node: anvil mines ETH and USDT (a 6-decimal test token) payments to
 * a derived address and to an address staff entered; the watcher credits each through the
 * ledger once, after `confirmations_eth`; a reorg before the credit drops a deposit, one
 * after it raises an alert and debits nothing.
 */

const CONFIRMATIONS = 4;

// Alice's derived address: m/44'/60'/0'/0/0 of the BIP-39 test mnemonic, known to wallets'
// test vectors as 0x9858EfFD232B4033E47d90003D41EC34EcaEda94.
const DERIVED = mnemonicToAccount(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  { addressIndex: 0 },
).address;

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let anvil: Anvil;
let chain: TestChain;
let usdt: Address;
let watcher: ReturnType<typeof createChainWatcher>;
// Bob's address, entered by staff for USDT-ERC20 (no derivation index).
const BOB_ADDRESS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
// Nobody's deposit address.
const UNWATCHED = mnemonicToAccount('test test test test test test test test test test test junk', {
  addressIndex: 5,
}).address;

beforeAll(async () => {
  [t, anvil] = await Promise.all([createTestApp(), startAnvil()]);
  chain = testChain(anvil);
  usdt = await chain.deployToken(6);
  [alice, bob] = [await verifiedCustomer(t), await verifiedCustomer(t)];
  await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
     VALUES ($1, 'ETH', 'ethereum', $2, 'ethereum', 0)`,
    [alice.userId, DERIVED],
  );
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address) VALUES ($1, 'USDT', 'erc20', $2)`,
    [bob.userId, BOB_ADDRESS],
  );
  const s = t.services;
  watcher = createChainWatcher({
    pool: s.pool,
    adapter: new EthereumAdapter({ rpcUrl: anvil.url, usdtContract: usdt }),
    ledger: s.ledger,
    prices: s.prices,
    outbox: s.outbox,
    audit: s.audit,
    settings: s.settings,
    log: s.log,
    publicUrl: s.config.publicUrl,
    // The watcher starts above the token's deployment.
    startHeight: Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1,
    backoffMs: { first: 60_000, max: 60_000 },
  });
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
    `SELECT status, confirmations, asset_id, amount_minor::text, user_id FROM chain_deposits
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
    expect(DERIVED).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
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
