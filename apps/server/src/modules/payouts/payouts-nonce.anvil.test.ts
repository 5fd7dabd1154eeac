import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { COMMANDS } from '@server/cli-commands';
import { type Anvil, startAnvil } from '@server-test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '@server-test/fixtures/ethereum/test-chain';
import {
  call,
  createTestApp,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from '@server-test/helpers';
import {
  expectReconciled,
  fund,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { type Address, type Hex, parseEther, parseTransaction } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChainWatcher, EthereumAdapter } from '../chains';
import { signEthereumFile } from './ethereum-payout-sign';
import {
  type EthPayoutEntry,
  type EthPayoutFile,
  PAYOUT_DERIVATION_PATH,
} from './ethereum-payout-tx';
import { nonceGap } from './settlement-resend';

/**
 * Ethereum nonces on a real node (anvil): a nonce left free (a payout returned after its
 * nonce was taken elsewhere, then a reorganisation took that transaction away) is seen as a
 * gap under Coffer's later transaction and taken by the next build, never skipped; stored
 * signed transactions are re-sent lowest nonce first.
 */

const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive(
  "m/44'/60'/0'",
).publicExtendedKey;
const CONFIRMATIONS = 2;

let anvil: Anvil;
let chain: TestChain;
let t: TestApp;
let watcher: ChainWatcher;
let adapter: EthereumAdapter;
let payout: Address;
let customer: SignedInUser;
let admin: SignedInUser;

const signer = mnemonicToAccount(MNEMONIC, { path: PAYOUT_DERIVATION_PATH });

beforeAll(async () => {
  anvil = await startAnvil();
  chain = testChain(anvil);
  const usdt = await chain.deployToken(6);
  t = await createTestApp({ ETH_RPC_URL: anvil.url, ETH_XPUB: XPUB, USDT_ERC20_CONTRACT: usdt });
  await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
  const found = t.services.chainWatchers.find((w) => w.chain === 'ethereum');
  const node = t.services.chainAdapters.find((a) => a instanceof EthereumAdapter);
  if (!found || !node) throw new Error('the app watches no Ethereum');
  watcher = found;
  adapter = node as EthereumAdapter;
  if (!t.services.payouts.payoutAddress) throw new Error('no payout address');
  payout = t.services.payouts.payoutAddress;
  customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'ETH', '50');
  admin = await spareStepUps(t, await verifiedAdmin(t), 200);
  await chain.sendEth(payout, parseEther('100'));
  await anvil.mine();
  await tick();
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

async function tick() {
  watcher.retryNow();
  expect(await watcher.tick()).toMatchObject({ state: 'ok' });
}

async function mineAndTick(blocks = 1) {
  for (let i = 0; i < blocks; i++) {
    await anvil.mine();
    await tick();
  }
}

async function approvedWithdrawal(amount: string): Promise<string> {
  const res = await requestWithdrawal(t, customer, {
    assetId: 'ETH',
    amount,
    address: freshAddress(),
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().transaction.id as string;
  const approved = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

async function built(): Promise<{ batchId: string; file: EthPayoutFile }> {
  const res = await call(t, {
    method: 'POST',
    url: '/api/admin/payouts/batches',
    cookie: admin.cookie,
    body: { chain: 'ethereum', stepUp: stepUpFor(admin) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return {
    batchId: res.json().batch.id as string,
    file: JSON.parse(res.json().file.content) as EthPayoutFile,
  };
}

async function submit(batchId: string, file: EthPayoutFile): Promise<string[]> {
  const res = await call(t, {
    method: 'POST',
    url: `/api/admin/payouts/batches/${batchId}/submit`,
    cookie: admin.cookie,
    body: { signed: JSON.stringify(signEthereumFile(file, MNEMONIC)), stepUp: stepUpFor(admin) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sent as string[];
}

async function payoutState(id: string) {
  const { rows } = await t.services.pool.query<{ state: string; returned_count: number }>(
    'SELECT state, returned_count FROM payouts WHERE transaction_id = $1',
    [id],
  );
  return rows[0];
}

const chainNonce = () => adapter.nonceOf(payout, 'latest');

describe('Ethereum nonces', () => {
  it('a nonce left free is reported as a gap and taken by the next build, never skipped', async () => {
    const start = await chainNonce();
    const a = await approvedWithdrawal('0.1');
    const first = await built();
    const entryA = first.file.entries[0] as EthPayoutEntry;
    expect(entryA.nonce).toBe(start);
    const b = await approvedWithdrawal('0.2');
    const second = await built();
    expect((second.file.entries[0] as EthPayoutEntry).nonce).toBe(start + 1);

    // The operator's key spends A's nonce elsewhere; once confirmed, A is approved again.
    const before = await anvil.rpc<string>('eth_blockNumber');
    const other = await signer.signTransaction({
      type: 'eip1559',
      chainId: entryA.chainId,
      nonce: entryA.nonce,
      to: freshAddress(),
      value: 7n,
      gas: 21_000n,
      maxFeePerGas: BigInt(entryA.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(entryA.maxPriorityFeePerGas),
    });
    await anvil.rpc('eth_sendRawTransaction', [other]);
    await mineAndTick(CONFIRMATIONS);
    expect(await payoutState(a)).toMatchObject({ state: 'approved', returned_count: 1 });
    expect(await chainNonce()).toBe(start + 1);

    // A reorganisation deeper than the confirmations takes that transaction away: the chain's
    // nonce is free again, below B's.
    const depth = Number(await anvil.rpc<string>('eth_blockNumber')) - Number(before);
    await anvil.rpc('anvil_rollback', [depth]);
    await anvil.mine(depth + 1);
    await tick();
    expect(await chainNonce()).toBe(start);
    expect(await payoutState(a)).toMatchObject({ state: 'approved' });

    // B signed and sent waits in the node's queue above the gap, which is reported.
    await submit(second.batchId, second.file);
    await mineAndTick();
    expect(await payoutState(b)).toMatchObject({ state: 'broadcast' });
    expect(await nonceGap(t.services.pool, adapter, payout)).toEqual({
      chainNonce: start,
      lowestLive: start + 1,
      missing: [start],
    });
    expect(await COMMANDS['chain-status']?.run(t.services, [])).toContain(
      `payout problem(s) in the last hour (last at `,
    );
    expect(await COMMANDS['chain-status']?.run(t.services, [])).toContain(
      `Ethereum nonce gap: the payout address's nonce on the chain is ${start} but Coffer's lowest sent transaction uses ${start + 1}; no transaction holds nonce ${start},`,
    );

    // The next build takes the free nonce (not start + 2): both are mined.
    const third = await built();
    expect(third.file.entries.map((e) => [e.payoutIds, e.nonce])).toEqual([[[a], start]]);
    await submit(third.batchId, third.file);
    for (let i = 0; i < CONFIRMATIONS + 2; i++) await mineAndTick();
    expect(await payoutState(a)).toMatchObject({ state: 'completed' });
    expect(await payoutState(b)).toMatchObject({ state: 'completed' });
    expect(await chainNonce()).toBe(start + 2);
    expect(await nonceGap(t.services.pool, adapter, payout)).toBeNull();
  });

  it('re-sends stored signed transactions lowest nonce first', async () => {
    const ids = [await approvedWithdrawal('0.01'), await approvedWithdrawal('0.02')];
    const { batchId, file } = await built();
    const nonces = file.entries.map((e) => e.nonce);
    expect(nonces[1]).toBe((nonces[0] as number) + 1);
    const hashes = await submit(batchId, file);
    expect(hashes).toHaveLength(2);
    // The node loses both (a restart): the watcher's tick sends the stored bytes again.
    for (const hash of [...hashes].reverse()) await anvil.rpc('anvil_dropTransaction', [hash]);
    const original = adapter.broadcast.bind(adapter);
    const order: number[] = [];
    const spy = vi.spyOn(adapter, 'broadcast').mockImplementation(async (signedHex: string) => {
      order.push(parseTransaction(signedHex as Hex).nonce ?? -1);
      return original(signedHex);
    });
    try {
      await tick();
    } finally {
      spy.mockRestore();
    }
    expect(order).toEqual(nonces);
    for (let i = 0; i < CONFIRMATIONS + 1; i++) await mineAndTick();
    for (const id of ids) expect(await payoutState(id)).toMatchObject({ state: 'completed' });
  });
});
