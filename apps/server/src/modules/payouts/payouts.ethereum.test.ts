import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type Anvil, startAnvil } from '@server-test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '@server-test/fixtures/ethereum/test-chain';
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
import { type Address, erc20Abi, type Hash, type Hex, keccak256, parseEther } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainWatcher } from '../chains';
import { signEthereumFile } from './ethereum-payout-sign';
import {
  type EthPayoutEntry,
  type EthPayoutFile,
  PAYOUT_DERIVATION_PATH,
} from './ethereum-payout-tx';
import { PAYOUT_MSG } from './payouts.service';

/**
 * Ethereum payouts end to end through the API on a real node (anvil): a customer's ETH and
 * USDT-ERC20 withdrawals are approved by an admin, built into a batch, signed offline
 * (Coffer's signer or an independent one), submitted, and settled by the app's own watcher
 * after `confirmations_eth`; a tampered file is refused with nothing sent; submits and
 * builds in parallel send and build once; a dropped transaction is re-sent as the same
 * bytes; a nonce taken elsewhere returns the payout once; a typed hash paying something else
 * is refused; and a submit killed right after its broadcast leaves one transaction that the
 * watcher settles.
 */

const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
// The operator's account key: Coffer is given only its xpub.
const XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive(
  "m/44'/60'/0'",
).publicExtendedKey;
const CONFIRMATIONS = 2;
const root = path.resolve(import.meta.dirname, '../../../../..');

let anvil: Anvil;
let chain: TestChain;
let usdt: Address;
let t: TestApp;
let watcher: ChainWatcher;
let payout: Address;
let customer: SignedInUser;
let admin: SignedInUser;
/** Approves the hand completions `admin` proposes (two people, decision 0036). */
let checker: SignedInUser;

beforeAll(async () => {
  anvil = await startAnvil();
  chain = testChain(anvil);
  usdt = await chain.deployToken(6);
  t = await createTestApp({ ETH_RPC_URL: anvil.url, ETH_XPUB: XPUB, USDT_ERC20_CONTRACT: usdt });
  await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
  const found = t.services.chainWatchers.find((w) => w.chain === 'ethereum');
  if (!found) throw new Error('the app watches no Ethereum');
  watcher = found;
  if (!t.services.payouts.payoutAddress) throw new Error('no payout address');
  payout = t.services.payouts.payoutAddress;
  customer = await verifiedCustomer(t);
  await fund(t, customer.userId, 'ETH', '50');
  await fund(t, customer.userId, 'USDT-ERC20', '5000');
  admin = await spareStepUps(t, await verifiedAdmin(t), 400);
  checker = await spareStepUps(t, await verifiedAdmin(t));
  // The operator funds the payout address from elsewhere (here anvil's dev account).
  await chain.sendEth(payout, parseEther('100'));
  await chain.sendToken(usdt, payout, 1_000_000_000_000n);
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

// ------------------------------------------------------------------------------ helpers

function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

async function tick() {
  watcher.retryNow();
  const result = await watcher.tick();
  expect(result).toMatchObject({ state: 'ok' });
}

async function mineAndTick(blocks = 1) {
  for (let i = 0; i < blocks; i++) {
    await anvil.mine();
    await tick();
  }
}

async function ethOf(address: Address) {
  return chain.client.getBalance({ address, blockTag: 'latest' });
}

async function usdtOf(address: Address) {
  return chain.client.readContract({
    address: usdt,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
    blockTag: 'latest',
  });
}

/** The payout address's transactions waiting in anvil's pool (pending and queued). */
async function poolOfPayout(): Promise<Array<{ hash: string; nonce: number }>> {
  const content = await anvil.rpc<{
    pending: Record<string, Record<string, { hash: string }>>;
    queued: Record<string, Record<string, { hash: string }>>;
  }>('txpool_content');
  const out: Array<{ hash: string; nonce: number }> = [];
  for (const part of [content.pending, content.queued]) {
    for (const [from, byNonce] of Object.entries(part)) {
      if (from.toLowerCase() !== payout.toLowerCase()) continue;
      for (const [nonce, tx] of Object.entries(byNonce))
        out.push({ hash: tx.hash, nonce: Number(nonce) });
    }
  }
  return out.sort((a, b) => a.nonce - b.nonce);
}

async function withdraw(assetId: 'ETH' | 'USDT-ERC20', amount: string, address: Address) {
  const res = await requestWithdrawal(t, customer, { assetId, amount, address });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().transaction.id as string;
}

async function approve(id: string) {
  const res = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

function build() {
  return call(t, {
    method: 'POST',
    url: '/api/admin/payouts/batches',
    cookie: admin.cookie,
    body: { chain: 'ethereum', stepUp: stepUpFor(admin) },
  });
}

async function built(): Promise<{ batchId: string; file: EthPayoutFile }> {
  const res = await build();
  expect(res.statusCode, res.body).toBe(200);
  return {
    batchId: res.json().batch.id as string,
    file: JSON.parse(res.json().file.content) as EthPayoutFile,
  };
}

function submit(batchId: string, signed: string) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/payouts/batches/${batchId}/submit`,
    cookie: admin.cookie,
    body: { signed, stepUp: stepUpFor(admin) },
  });
}

function signedFileText(file: EthPayoutFile): string {
  return JSON.stringify(signEthereumFile(file, MNEMONIC), null, 2);
}

const signer = mnemonicToAccount(MNEMONIC, { path: PAYOUT_DERIVATION_PATH });

/** An entry signed by viem, with fields changed as a tampering signer would. */
function signedByViem(
  entry: EthPayoutEntry,
  change: Partial<{ to: Address; value: bigint; maxFeePerGas: bigint }> = {},
  account = signer,
): Promise<Hex> {
  return account.signTransaction({
    type: 'eip1559',
    chainId: entry.chainId,
    nonce: entry.nonce,
    to: entry.to as Address,
    value: BigInt(entry.value),
    data: entry.data,
    gas: BigInt(entry.gas),
    maxFeePerGas: BigInt(entry.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
    ...change,
  });
}

type PayoutDbRow = {
  state: string;
  tx_hash: string | null;
  network_fee_minor: string | null;
  returned_count: number;
  batch_id: string | null;
};

async function payoutRow(id: string): Promise<PayoutDbRow> {
  const { rows } = await t.services.pool.query<PayoutDbRow>(
    `SELECT state, tx_hash, network_fee_minor::text, returned_count, batch_id::text
       FROM payouts WHERE transaction_id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new Error(`no payout ${id}`);
  return row;
}

async function ledgerRow(id: string) {
  const { rows } = await t.services.pool.query<{
    status: string;
    transaction_hash: string | null;
  }>('SELECT status, transaction_hash FROM transactions WHERE id = $1', [id]);
  return rows[0];
}

/** Mines and ticks until every payout named is completed (a bounded number of blocks). */
async function settle(ids: string[]) {
  for (let i = 0; i < CONFIRMATIONS + 3; i++) {
    const states = await Promise.all(ids.map(async (id) => (await payoutRow(id)).state));
    if (states.every((s) => s === 'completed')) return;
    await mineAndTick();
  }
  expect(await Promise.all(ids.map(async (id) => (await payoutRow(id)).state))).toEqual(
    ids.map(() => 'completed'),
  );
}

async function receiptFee(hash: string): Promise<bigint> {
  const receipt = await chain.client.getTransactionReceipt({ hash: hash as Hash });
  expect(receipt.status).toBe('success');
  return receipt.gasUsed * receipt.effectiveGasPrice;
}

/** The customer's History row of a withdrawal. */
async function historyOf(id: string) {
  const res = await call(t, { url: '/api/transactions?limit=100', cookie: customer.cookie });
  expect(res.statusCode).toBe(200);
  const items = res.json().items as Array<{
    id: string;
    status: string;
    transactionHash: string | null;
    confirmations?: { current: number; required: number };
  }>;
  return items.find((i) => i.id === id);
}

/** How many "sent" mails the customer has had, once the outbox is delivered. */
async function sentMails(): Promise<number> {
  await t.services.outbox.deliver({ wait: 'all' });
  return mailsTo(t, customer.email).filter((m) => m.includes('Your withdrawal has been sent'))
    .length;
}

async function batchCount(): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM payout_batches WHERE chain = 'ethereum'`,
  );
  return rows[0]?.n ?? 0;
}

// -------------------------------------------------------------------------------- tests

describe('Ethereum payouts through the API on anvil', () => {
  it('returns a payout to approved once when another transaction took its nonce, and pays it with the next', async () => {
    // First in this file: no payout transaction was ever recorded, so the batch's unsigned
    // transaction is all the watcher has to look out for (it has no hash yet).
    const { rows: recorded } = await t.services.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM payout_transactions',
    );
    expect(recorded[0]?.n).toBe(0);
    const grace = freshAddress();
    const id = await withdraw('ETH', '0.2', grace);
    await approve(id);
    const heldBefore = await walletOf(t, customer.userId, 'ETH');
    const { batchId, file } = await built();
    const entry = file.entries[0] as EthPayoutEntry;
    const signedText = signedFileText(file);

    // The operator's key spends the nonce elsewhere before the file comes back.
    const elsewhere = freshAddress();
    const other = await signer.signTransaction({
      type: 'eip1559',
      chainId: entry.chainId,
      nonce: entry.nonce,
      to: elsewhere,
      value: 7n,
      gas: 21_000n,
      maxFeePerGas: BigInt(entry.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
    });
    await anvil.rpc('eth_sendRawTransaction', [other]);
    await mineAndTick();
    expect(await ethOf(elsewhere)).toBe(7n);
    // Seen, one confirmation: not yet returned.
    expect((await payoutRow(id)).state).toBe('in-batch');

    await mineAndTick(CONFIRMATIONS - 1);
    const returnedAudit = async () => {
      const { rows } = await t.services.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE action = 'payouts.returned' AND target_id = $1`,
        [batchId],
      );
      return rows[0]?.n;
    };
    expect(await payoutRow(id)).toMatchObject({
      state: 'approved',
      returned_count: 1,
      batch_id: null,
      tx_hash: null,
    });
    expect(await returnedAudit()).toBe(1);
    expect((await ledgerRow(id))?.status).toBe('pending');
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual(heldBefore);

    await mineAndTick(3);
    expect((await payoutRow(id)).returned_count).toBe(1);
    expect(await returnedAudit()).toBe(1);
    // The old file is for an abandoned batch: nothing is sent.
    const stale = await submit(batchId, signedText);
    expect(stale.statusCode).toBe(409);
    expect(await poolOfPayout()).toEqual([]);

    const rebuilt = await built();
    expect(rebuilt.batchId).not.toBe(batchId);
    expect(rebuilt.file.entries.map((e) => [e.payoutIds, e.nonce])).toEqual([
      [[id], entry.nonce + 1],
    ]);
    const res = await submit(rebuilt.batchId, signedFileText(rebuilt.file));
    expect(res.statusCode, res.body).toBe(200);
    await settle([id]);
    expect(await ethOf(grace)).toBe(parseEther('0.2'));
    expect((await payoutRow(id)).returned_count).toBe(1);
  });

  it('pays an ETH and a USDT-ERC20 withdrawal signed by Coffer’s signer, settled after the confirmations', async () => {
    const [alice, bob] = [freshAddress(), freshAddress()];
    const mailsBefore = await sentMails();
    const ethId = await withdraw('ETH', '0.123456789', alice);
    const usdtId = await withdraw('USDT-ERC20', '25.5', bob);
    await approve(ethId);
    await approve(usdtId);

    const { batchId, file } = await built();
    expect(file.entries.map((e) => [e.payoutIds, e.assetId, e.recipient, e.amount])).toEqual([
      [[ethId], 'ETH', alice, '123456789000000000'],
      [[usdtId], 'USDT-ERC20', bob, '25500000'],
    ]);
    expect(file.entries.every((e) => e.from === payout)).toBe(true);

    const res = await submit(batchId, signedFileText(file));
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().sent as string[];
    expect(sent).toHaveLength(2);
    expect(res.json().alreadySent).toEqual([]);
    expect((await poolOfPayout()).map((p) => p.hash)).toEqual(sent);
    // Sent, not yet in a block: the customer sees the transaction, 0 of 2 confirmations.
    expect(await historyOf(ethId)).toMatchObject({
      status: 'pending',
      transactionHash: sent[0],
      confirmations: { current: 0, required: CONFIRMATIONS },
    });

    await mineAndTick();
    expect(await historyOf(ethId)).toMatchObject({
      status: 'pending',
      transactionHash: sent[0],
      confirmations: { current: 1, required: CONFIRMATIONS },
    });
    expect(await historyOf(usdtId)).toMatchObject({
      status: 'pending',
      confirmations: { current: 1, required: CONFIRMATIONS },
    });
    expect((await ledgerRow(ethId))?.status).toBe('pending');

    await mineAndTick();
    expect(await ledgerRow(ethId)).toEqual({ status: 'completed', transaction_hash: sent[0] });
    expect(await ledgerRow(usdtId)).toEqual({ status: 'completed', transaction_hash: sent[1] });
    expect(await ethOf(alice)).toBe(123_456_789_000_000_000n);
    expect(await usdtOf(bob)).toBe(25_500_000n);
    expect(await usdtOf(alice)).toBe(0n);
    expect(await ethOf(bob)).toBe(0n);
    for (const [i, id] of [ethId, usdtId].entries()) {
      const row = await payoutRow(id);
      expect(row).toMatchObject({ state: 'completed', tx_hash: sent[i] });
      expect(row.network_fee_minor).toBe((await receiptFee(sent[i] as string)).toString());
    }
    expect((await historyOf(ethId))?.status).toBe('completed');
    expect(await walletOf(t, customer.userId, 'ETH')).toMatchObject({ held: '0' });

    expect(await sentMails()).toBe(mailsBefore + 2);

    const overview = await call(t, {
      url: '/api/admin/payouts?chain=ethereum',
      cookie: admin.cookie,
    });
    expect(overview.statusCode).toBe(200);
    const batch = overview.json().batches.find((b: { id: string }) => b.id === batchId);
    expect(batch).toMatchObject({ state: 'completed', txHashes: sent });
    expect(batch.payouts.map((p: { state: string }) => p.state)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('pays a batch signed by an independent signer (viem), submitted as raw signed transactions', async () => {
    const [carol, dave] = [freshAddress(), freshAddress()];
    const ethId = await withdraw('ETH', '0.5', carol);
    const usdtId = await withdraw('USDT-ERC20', '1', dave);
    await approve(ethId);
    await approve(usdtId);
    const { batchId, file } = await built();
    const raws = await Promise.all(file.entries.map((e) => signedByViem(e)));

    const res = await submit(batchId, JSON.stringify(raws));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sent).toHaveLength(2);
    await settle([ethId, usdtId]);
    expect(await ethOf(carol)).toBe(parseEther('0.5'));
    expect(await usdtOf(dave)).toBe(1_000_000n);
    expect((await ledgerRow(usdtId))?.status).toBe('completed');
  });

  it('refuses a tampered signed transaction, naming the difference, with nothing sent or changed', async () => {
    const erin = freshAddress();
    const id = await withdraw('ETH', '0.25', erin);
    await approve(id);
    const { batchId, file } = await built();
    const entry = file.entries[0] as EthPayoutEntry;
    const mallory = freshAddress();
    const stranger = mnemonicToAccount(MNEMONIC, { path: "m/44'/60'/0'/0/0" });
    const cases: Array<[string, Promise<Hex>, RegExp]> = [
      ['another recipient', signedByViem(entry, { to: mallory }), /to is 0x\w+ where Coffer built/],
      [
        'another amount',
        signedByViem(entry, { value: BigInt(entry.value) + 1n }),
        new RegExp(
          `value is ${BigInt(entry.value) + 1n} wei where Coffer built ${entry.value} wei`,
        ),
      ],
      [
        'a fee over the cap built',
        signedByViem(entry, { maxFeePerGas: BigInt(entry.maxFeePerGas) + 1n }),
        /maxFeePerGas .* gwei is above the .* gwei built/,
      ],
      [
        'the wrong key',
        signedByViem(entry, {}, stranger),
        new RegExp(`signed by ${stranger.address} instead of the payout address ${payout}`),
      ],
    ];
    for (const [what, raw, message] of cases) {
      const res = await withoutChange(t, async () => submit(batchId, JSON.stringify([await raw])));
      expect(res.statusCode, what).toBe(400);
      expect(errorOf(res).error).toBe('VALIDATION_FAILED');
      expect(errorOf(res).message, what).toMatch(message);
      expect(await poolOfPayout(), what).toEqual([]);
      expect(await anvil.rpc('eth_getTransactionByHash', [keccak256(await raw)])).toBeNull();
    }
    expect(await payoutRow(id)).toMatchObject({ state: 'in-batch', tx_hash: null });

    // The untouched file still pays.
    const res = await submit(batchId, signedFileText(file));
    expect(res.statusCode, res.body).toBe(200);
    await settle([id]);
    expect(await ethOf(erin)).toBe(parseEther('0.25'));
    expect(await ethOf(mallory)).toBe(0n);
  });
  it('sends a signed file once, however often and however many at once it is submitted; parallel builds build one batch', async () => {
    const [a, b, c] = [freshAddress(), freshAddress(), freshAddress()];
    const ids = [await withdraw('ETH', '0.01', a), await withdraw('USDT-ERC20', '2', b)];
    for (const id of ids) await approve(id);
    const batchesBefore = await batchCount();
    const builds = await Promise.all(Array.from({ length: 20 }, () => build()));
    expect(builds.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const refused = builds.filter((r) => r.statusCode !== 200);
    expect(refused.map((r) => r.statusCode)).toEqual(Array.from({ length: 19 }, () => 409));
    expect(new Set(refused.map((r) => errorOf(r).message))).toEqual(
      new Set([PAYOUT_MSG.noneWaiting]),
    );
    expect(await batchCount()).toBe(batchesBefore + 1);
    const ok = builds.find((r) => r.statusCode === 200);
    const batchId = ok?.json().batch.id as string;
    const text = signedFileText(JSON.parse(ok?.json().file.content) as EthPayoutFile);

    const first = await submit(batchId, text);
    expect(first.statusCode, first.body).toBe(200);
    const hashes = first.json().sent as string[];
    expect(hashes).toHaveLength(2);
    const again = await submit(batchId, text);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ sent: [], alreadySent: hashes });
    // One transaction per nonce in the pool.
    expect((await poolOfPayout()).map((p) => p.hash)).toEqual(hashes);
    await settle(ids);

    // Twenty submits of one file at once: one sends, the others find it recorded.
    const id = await withdraw('ETH', '0.02', c);
    await approve(id);
    const next = await built();
    const nextText = signedFileText(next.file);
    const submits = await Promise.all(
      Array.from({ length: 20 }, () => submit(next.batchId, nextText)),
    );
    expect(submits.map((r) => r.statusCode)).toEqual(Array.from({ length: 20 }, () => 200));
    const bodies = submits.map((r) => r.json() as { sent: string[]; alreadySent: string[] });
    const senders = bodies.filter((r) => r.sent.length > 0);
    expect(senders).toHaveLength(1);
    const hash = senders[0]?.sent[0];
    expect(senders[0]?.sent).toEqual([hash]);
    expect(bodies.filter((r) => r.sent.length === 0).map((r) => r.alreadySent)).toEqual(
      Array.from({ length: 19 }, () => [hash]),
    );
    expect(await poolOfPayout()).toEqual([{ hash, nonce: next.file.entries[0]?.nonce }]);
    const { rows } = await t.services.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE action = 'payouts.submit' AND target_id = $1`,
      [next.batchId],
    );
    expect(rows[0]?.n).toBe(1);
    await settle([id]);
    expect(await ethOf(c)).toBe(parseEther('0.02'));
  });

  it('sends a transaction dropped from the pool again, the same bytes, and settles it', async () => {
    const frank = freshAddress();
    const id = await withdraw('ETH', '0.3', frank);
    await approve(id);
    const { batchId, file } = await built();
    const res = await submit(batchId, signedFileText(file));
    expect(res.statusCode, res.body).toBe(200);
    const [hash] = res.json().sent as string[];
    expect((await poolOfPayout()).map((p) => p.hash)).toEqual([hash]);

    await anvil.rpc('anvil_dropTransaction', [hash]);
    expect(await anvil.rpc('eth_getTransactionByHash', [hash])).toBeNull();
    expect(await poolOfPayout()).toEqual([]);
    // The watcher's tick finds it gone and sends the recorded bytes again: the same hash.
    await tick();
    expect((await poolOfPayout()).map((p) => p.hash)).toEqual([hash]);

    await settle([id]);
    expect(await payoutRow(id)).toMatchObject({ state: 'completed', tx_hash: hash });
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: hash });
    expect(await ethOf(frank)).toBe(parseEther('0.3'));
  });

  it('refuses a typed hash that pays another address or amount, saying what it pays; the hold stays', async () => {
    const henry = freshAddress();
    const id = await withdraw('ETH', '0.15', henry);
    await approve(id);
    const complete = (reference: string) =>
      call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/complete`,
        cookie: admin.cookie,
        body: { reference, stepUp: stepUpFor(admin) },
      });
    const ivy = freshAddress();
    const tooMuch = await chain.sendEth(henry, parseEther('0.2'));
    const elsewhere = await chain.sendEth(ivy, parseEther('0.15'));
    await mineAndTick();

    const held = await walletOf(t, customer.userId, 'ETH');
    for (const [hash, pays] of [
      [tooMuch, `0.2 to ${henry.toLowerCase()}`],
      [elsewhere, `0.15 to ${ivy.toLowerCase()}`],
    ] as const) {
      const res = await withoutChange(t, () => complete(hash));
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'VALIDATION_FAILED',
        message: `This transaction pays ${pays}, not 0.15 ETH to ${henry}. The payout stays held.`,
      });
    }
    expect(await walletOf(t, customer.userId, 'ETH')).toEqual(held);
    expect((await payoutRow(id)).state).toBe('approved');

    // One that pays exactly is taken, and completes at the confirmations.
    const exact = await chain.sendEth(henry, parseEther('0.15'));
    await mineAndTick();
    const res = await complete(exact);
    expect(res.statusCode, res.body).toBe(202);
    // Proposed: nothing moves until another staff member approves it.
    expect((await payoutRow(id)).state).toBe('approved');
    const approved = await call(t, {
      method: 'POST',
      url: `/api/admin/changes/${res.json().pending.id}/approve`,
      cookie: checker.cookie,
      body: { stepUp: stepUpFor(checker) },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await payoutRow(id)).state).toBe('confirming');
    await settle([id]);
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: exact });
  });

  it("refuses Coffer's own batch transaction typed for another payout of the same address and amount", async () => {
    const jane = freshAddress();
    const paid = await withdraw('ETH', '0.07', jane);
    await approve(paid);
    const { batchId, file } = await built();
    const res = await submit(batchId, signedFileText(file));
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json().sent as string[];
    const own = sent[file.entries.findIndex((e) => e.payoutIds.includes(paid))] as string;
    await mineAndTick();
    // A second withdrawal of the same amount to the same address, approved after the build.
    const other = await withdraw('ETH', '0.07', jane);
    await approve(other);
    const refused = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${other}/complete`,
        cookie: admin.cookie,
        body: { reference: own, stepUp: stepUpFor(admin) },
      }),
    );
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(
      new RegExp(
        `^This is Coffer's own payout transaction \\(batch ${batchId}\\): the watcher settles it\\. It pays payout [^.]*${paid}[^.]*\\. The payout stays held\\.$`,
      ),
    );
    await settle([paid]);
    expect(await ledgerRow(paid)).toEqual({ status: 'completed', transaction_hash: own });
    expect((await payoutRow(other)).state).toBe('approved');
    expect(await ethOf(jane)).toBe(70_000_000_000_000_000n);
    // Rejected, so the next test's batch pays only its own payouts.
    const rejected = await call(t, {
      method: 'POST',
      url: `/api/admin/withdrawals/${other}/reject`,
      cookie: admin.cookie,
      body: { reason: 'Paid by the transaction above', stepUp: stepUpFor(admin) },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
  });

  it('a submit killed right after its broadcast leaves one transaction, which the watcher settles', async () => {
    const jack = freshAddress();
    const id = await withdraw('ETH', '0.05', jack);
    await approve(id);
    const { batchId, file } = await built();
    const batches = await batchCount();
    const signed = signEthereumFile(file, MNEMONIC);
    const entry = signed.entries[0] as EthPayoutEntry;
    const hash = keccak256(entry.signed as Hex);
    const sentBefore = await chain.client.getTransactionCount({
      address: payout,
      blockTag: 'latest',
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-eth-payouts-'));
    const input = path.join(dir, 'signed.json');
    fs.writeFileSync(input, JSON.stringify(signed));

    const outcome = await new Promise<{ code: number | null; signal: string | null; err: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          [
            '--import',
            'tsx',
            'apps/server/src/cli.ts',
            'payouts-submit',
            '--chain',
            'eth',
            '--in',
            input,
          ],
          {
            cwd: root,
            env: {
              ...process.env,
              DATABASE_URL: t.databaseUrl,
              DATA_DIR: t.dataDir,
              COFFER_SECRET_KEY: t.secretKeyHex ?? '',
              ETH_RPC_URL: anvil.url,
              ETH_XPUB: XPUB,
              USDT_ERC20_CONTRACT: usdt,
              COFFER_TEST_FAULT: 'kill-after-broadcast',
              LOG_LEVEL: 'silent',
            },
          },
          (_error, _stdout, stderr) => {
            resolve({ code: child.exitCode, signal: child.signalCode, err: stderr });
          },
        );
      },
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(outcome, outcome.err).toMatchObject({ signal: 'SIGKILL' });

    // Sent once, and recorded before it was sent; the send itself was never noted.
    expect(await poolOfPayout()).toEqual([{ hash, nonce: entry.nonce }]);
    const { rows } = await t.services.pool.query<{
      state: string;
      tx_hash: string;
      last_sent_at: Date | null;
      batch_state: string;
    }>(
      `SELECT t.state, t.tx_hash, t.last_sent_at, b.state AS batch_state
         FROM payout_transactions t JOIN payout_batches b ON b.id = t.batch_id WHERE b.id = $1`,
      [batchId],
    );
    expect(rows).toEqual([
      { state: 'broadcast', tx_hash: hash, last_sent_at: null, batch_state: 'broadcast' },
    ]);
    expect(await payoutRow(id)).toMatchObject({ state: 'broadcast', tx_hash: hash });

    // The watcher finds it in the pool (nothing to re-send) and settles it once mined.
    await tick();
    expect(await poolOfPayout()).toEqual([{ hash, nonce: entry.nonce }]);
    await settle([id]);
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: hash });
    expect(await ethOf(jack)).toBe(parseEther('0.05'));
    expect(await batchCount()).toBe(batches);
    expect(await chain.client.getTransactionCount({ address: payout, blockTag: 'latest' })).toBe(
      sentBefore + 1,
    );
  });
});
