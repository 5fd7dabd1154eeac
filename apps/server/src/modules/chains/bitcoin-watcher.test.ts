import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { p2wpkh } from '@scure/btc-signer';
import {
  createTestApp,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
} from '@server-test/helpers';
import { type LitecoinNode, startLitecoinNode, WALLET } from '@server-test/litecoin-node';
import { expectReconciled, setSetting, walletOf } from '@server-test/money-helpers';
import { testWatcher } from '@server-test/test-watcher';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BitcoinAdapter } from './bitcoin-adapter';
import { CONFIRMATIONS_SQL } from './chain-deposits.repository';
import type { createChainWatcher } from './chain-watcher';

/**
 * End to end on a real node: Litecoin Core in regtest pays a BIP-84 `bcrt1…` address by its
 * script (the node itself writes `rltc1…`), and the watcher credits it through the ledger
 * after `confirmations_btc`, once; a fork before the credit takes the deposit back off.
 */

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };

let t: TestApp;
let alice: SignedInUser;
let node: LitecoinNode;
let watcher: ReturnType<typeof createChainWatcher>;
let nodeAddress: string;

// Alice's deposit address: index 0 of a BIP-84 test-network account (m/84'/1'/0').
const account = HDKey.fromMasterSeed(
  mnemonicToSeedSync(
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  ),
).derive("m/84'/1'/0'");
const publicKey = account.deriveChild(0).deriveChild(0).publicKey;
if (!publicKey) throw new Error('derivation gave no public key');
const deposit = p2wpkh(publicKey, REGTEST);

beforeAll(async () => {
  [t, node] = await Promise.all([createTestApp(), startLitecoinNode()]);
  alice = await verifiedCustomer(t);
  await setSetting(t, 'confirmations_btc', '3');
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
     VALUES ($1, 'BTC', 'bitcoin', $2, 'bitcoin', 0)`,
    [alice.userId, deposit.address],
  );
  // Coinbase outputs mature after 100 blocks: 101 give the node's wallet coins to spend.
  await node.mine(101);
  const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
    hex.encode(deposit.script),
  ]);
  const printed = decoded.address ?? decoded.addresses?.[0];
  if (!printed) throw new Error('the node printed no address for the script');
  nodeAddress = printed;
  // The watcher starts above the blocks mined so far.
  watcher = testWatcher(t, new BitcoinAdapter({ rpcUrl: node.rpcUrl, network: 'regtest' }), {
    startHeight: 102,
  });
}, 60_000);

afterAll(async () => {
  await node?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

/** Pays Alice's deposit script from the node's wallet, by the node's own address for it. */
async function payAlice(amount: string): Promise<string> {
  expect(nodeAddress).toMatch(/^rltc1q/);
  return node.rpc<string>('sendtoaddress', [nodeAddress, amount], WALLET);
}

/** An empty block: after `invalidateblock`, the replacement chain without the payment. */
async function mineEmpty(): Promise<void> {
  await node.rpc('generateblock', [await node.rpc<string>('getnewaddress', [], WALLET), []]);
}

async function tick() {
  const result = await watcher.tick();
  expect(result.state).toBe('ok');
  return result;
}

async function depositsOf(txid: string) {
  const { rows } = await t.services.pool.query<{
    status: string;
    confirmations: number;
    amount_minor: string;
    transaction_id: string | null;
  }>(
    `SELECT status, ${CONFIRMATIONS_SQL} AS confirmations, amount_minor::text, transaction_id FROM chain_deposits d LEFT JOIN chain_cursors c USING (chain)
      WHERE chain = 'bitcoin' AND tx_hash = $1`,
    [txid],
  );
  return rows;
}

async function ledgerRowsOf(txid: string) {
  const { rows } = await t.services.pool.query<{ status: string; crypto_amount: string }>(
    `SELECT status, trim_scale(crypto_amount)::text AS crypto_amount FROM transactions
      WHERE transaction_type = 'deposit' AND transaction_hash = $1 AND user_id = $2`,
    [txid, alice.userId],
  );
  return rows;
}

/** The audit log's actions on the chain deposit of `txid`, oldest first. */
async function auditActionsFor(txid: string): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ action: string }>(
    `SELECT a.action FROM audit_log a JOIN chain_deposits d ON a.target_id = d.id::text
      WHERE d.tx_hash = $1 ORDER BY a.created_at, a.id`,
    [txid],
  );
  return rows.map((r) => r.action);
}

/** Alice's "deposit has arrived" mails, once the outbox has sent what is queued. */
async function creditMails(): Promise<string[]> {
  await t.services.outbox.deliver({ wait: 'all' });
  return mailsTo(t, alice.email).filter((m) => m.includes('Your BTC deposit has arrived'));
}

async function btcBalance(): Promise<string> {
  return (await walletOf(t, alice.userId, 'BTC'))?.balance ?? '0';
}

describe('Bitcoin deposits on a Litecoin Core regtest node', () => {
  it('credits a payment to the derived address after confirmations_btc blocks, exactly once', async () => {
    await tick();
    const before = await btcBalance();
    const txid = await payAlice('0.29');
    await node.mine(1);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([
      { status: 'confirming', confirmations: 1, amount_minor: '29000000' },
    ]);
    expect(await ledgerRowsOf(txid)).toEqual([{ status: 'pending', crypto_amount: '0.29' }]);
    expect(await btcBalance()).toBe(before);

    await node.mine(1);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'confirming', confirmations: 2 }]);
    expect(await btcBalance()).toBe(before);

    // The including block counts as 1: the third block credits it.
    await node.mine(1);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'credited', confirmations: 3 }]);
    expect(await ledgerRowsOf(txid)).toEqual([{ status: 'completed', crypto_amount: '0.29' }]);
    expect(await btcBalance()).toBe('0.29');
    expect(before).toBe('0');
    expect(await creditMails()).toEqual([
      expect.stringContaining('Your deposit of 0.29 BTC is confirmed'),
    ]);

    // More blocks, more ticks: nothing is credited again.
    await node.mine(3);
    await tick();
    await tick();
    expect(await ledgerRowsOf(txid)).toHaveLength(1);
    expect(await btcBalance()).toBe('0.29');
    expect(await creditMails()).toHaveLength(1);
  });

  it('drops a deposit whose block a fork replaces before credit, and credits it once when it is mined again', async () => {
    const before = await btcBalance();
    const txid = await payAlice('0.5');
    const [included] = await node.mine(1);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'confirming', confirmations: 1 }]);

    // A fork: the block leaves the chain and a longer one without the payment replaces it.
    await node.rpc('invalidateblock', [included]);
    await mineEmpty();
    await mineEmpty();
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'orphaned' }]);
    expect(await ledgerRowsOf(txid)).toEqual([{ status: 'failed', crypto_amount: '0.5' }]);
    expect(await btcBalance()).toBe(before);

    // The payment waited in the node's mempool: the next block includes it again.
    await node.mine(1);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'confirming', confirmations: 1 }]);
    expect(await btcBalance()).toBe(before);
    await node.mine(2);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'credited', confirmations: 3 }]);
    expect(await ledgerRowsOf(txid)).toEqual([{ status: 'completed', crypto_amount: '0.5' }]);
    expect(await btcBalance()).toBe('0.79');
  });

  it('never debits a credited deposit a fork takes off the chain: staff are alerted, and told when it is back', async () => {
    expect(await btcBalance()).toBe('0.79');
    const txid = await payAlice('0.01');
    const [included] = await node.mine(3);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'credited', confirmations: 3 }]);
    const credited = await btcBalance();
    expect(credited).toBe('0.8');

    await node.rpc('invalidateblock', [included]);
    for (let i = 0; i < 4; i++) await mineEmpty();
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'reversed-on-chain' }]);
    expect(await btcBalance()).toBe(credited);
    expect(await ledgerRowsOf(txid)).toEqual([{ status: 'completed', crypto_amount: '0.01' }]);
    expect(await auditActionsFor(txid)).toEqual(['chain.deposit.reversed']);

    // Mined again from the mempool: credited as it was, never twice.
    await node.mine(1);
    await tick();
    expect(await depositsOf(txid)).toMatchObject([{ status: 'credited' }]);
    expect(await btcBalance()).toBe(credited);
    expect(await ledgerRowsOf(txid)).toHaveLength(1);
    expect(await auditActionsFor(txid)).toEqual([
      'chain.deposit.reversed',
      'chain.deposit.returned',
    ]);
  });
});
