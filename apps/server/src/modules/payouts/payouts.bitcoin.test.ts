import { bech32, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
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
import { type LitecoinNode, startLitecoinNode, WALLET } from '@server-test/litecoin-node';
import {
  expectReconciled,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
  walletOf,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainWatcher } from '../chains';
import { bitcoinP2wpkh } from '../chains';
import { buildBitcoinBatch } from './bitcoin-psbt-build';
import { checkSignedBitcoin } from './bitcoin-psbt-check';
import { signPayoutFile } from './offline-signer';

/**
 * Bitcoin payouts end to end on a real node (Litecoin Core in regtest, Bitcoin Core's
 * JSON-RPC): deposits on derived addresses are the outputs a batch spends; staff approve,
 * build, the operator signs offline, Coffer checks and broadcasts, and the watcher settles
 * each payout by its output at `confirmations_btc`.
 */

const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ACCOUNT_PATH = "m/84'/1'/0'";
const account = HDKey.fromMasterSeed(mnemonicToSeedSync(ABANDON), {
  private: 0x04358394,
  public: 0x043587cf,
}).derive(ACCOUNT_PATH);
const CONFIRMATIONS = 2;

let t: TestApp;
let node: LitecoinNode;
let alice: SignedInUser;
let admin: SignedInUser;
let watcher: ChainWatcher;

const sats = (value: number): bigint => BigInt(Math.round(value * 1e8));
/** Signs as `sign-payouts` does (the same code, without its file and standard input). */
const sign = (psbt: string) =>
  signPayoutFile(psbt, ABANDON, { bitcoinAccountPath: ACCOUNT_PATH }).content;

function scriptAt(index: number): string {
  const key = account.deriveChild(0).deriveChild(index).publicKey;
  if (!key) throw new Error('no key');
  return bitcoinP2wpkh(key, 'regtest').script;
}

async function nodeAddressOf(script: string): Promise<string> {
  const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
    script,
  ]);
  const address = decoded.address ?? decoded.addresses?.[0];
  if (!address) throw new Error('no address');
  return address;
}

/** A fresh address of the node's wallet, written as customers write regtest addresses. */
async function destination(): Promise<{ address: string; script: string }> {
  const address = await node.rpc<string>('getnewaddress', [], WALLET);
  const { scriptPubKey } = await node.rpc<{ scriptPubKey: string }>(
    'getaddressinfo',
    [address],
    WALLET,
  );
  const program = hex.decode(scriptPubKey.slice(4));
  return { address: bech32.encode('bcrt', [0, ...bech32.toWords(program)]), script: scriptPubKey };
}

async function settle(blocks: number) {
  for (let i = 0; i < blocks; i++) {
    await node.mine(1);
    expect((await watcher.tick()).state).toBe('ok');
  }
}

/** A withdrawal Alice asks for and a second admin approves; its ledger row id. */
async function approvedWithdrawal(amount: string, to: string): Promise<string> {
  const res = await requestWithdrawal(t, alice, { assetId: 'BTC', amount, address: to });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().transaction.id as string;
  const approved = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  expect(approved.json().transaction.payoutState).toBe('approved');
  return id;
}

const build = () =>
  call(t, {
    method: 'POST',
    url: '/api/admin/payouts/batches',
    cookie: admin.cookie,
    body: { chain: 'bitcoin', stepUp: stepUpFor(admin) },
  });

const submit = (batchId: string, signed: string) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/payouts/batches/${batchId}/submit`,
    cookie: admin.cookie,
    body: { signed, stepUp: stepUpFor(admin) },
  });

async function payout(id: string) {
  const { rows } = await t.services.pool.query<{
    state: string;
    tx_hash: string | null;
    returned_count: number;
    network_fee_minor: string | null;
  }>(
    'SELECT state, tx_hash, returned_count, network_fee_minor FROM payouts WHERE transaction_id = $1',
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

/**
 * Another transaction spending the first input of a batch (paying the node's wallet), built
 * and signed with the operator's key, as if paid from another wallet.
 */
async function otherSpendOf(batchId: string): Promise<{ psbt: string; signed: string }> {
  const { rows: inputs } = await t.services.pool.query<{
    tx_hash: string;
    output_index: number;
    amount_minor: string;
  }>(
    'SELECT tx_hash, output_index, amount_minor FROM payout_inputs WHERE batch_id = $1 ORDER BY tx_hash',
    [batchId],
  );
  const input = inputs[0];
  if (!input) throw new Error('the batch spends nothing');
  const { rows: origin } = await t.services.pool.query<{
    change: number;
    derivation_index: number;
  }>(
    `SELECT 0 AS change, a.derivation_index FROM chain_deposits d JOIN deposit_addresses a ON a.address = d.address
      WHERE d.tx_hash = $1 AND d.output_index = $2
     UNION ALL SELECT 1, derivation_index FROM payout_change_outputs WHERE tx_hash = $1 AND output_index = $2`,
    [input.tx_hash, input.output_index],
  );
  const from = origin[0];
  if (!from) throw new Error('unknown input');
  const key = account.deriveChild(from.change).deriveChild(from.derivation_index).publicKey;
  const changeKey = account.deriveChild(1).deriveChild(999).publicKey;
  if (!key || !changeKey) throw new Error('no key');
  const mine = await destination();
  const spend = buildBitcoinBatch({
    spendable: [
      {
        txid: input.tx_hash,
        vout: input.output_index,
        amount: BigInt(input.amount_minor),
        script: bitcoinP2wpkh(key, 'regtest').script,
        change: from.change as 0 | 1,
        index: from.derivation_index,
        publicKey: hex.encode(key),
      },
    ],
    payouts: [{ id: 'elsewhere', script: mine.script, amount: 1_000_000n }],
    feeRate: 2,
    change: {
      index: 999,
      script: bitcoinP2wpkh(changeKey, 'regtest').script,
      publicKey: hex.encode(changeKey),
    },
    accountFingerprint: account.fingerprint,
    keyOrigin: null,
  });
  if (!spend) throw new Error('the other spend was not built');
  return { psbt: spend.psbt, signed: sign(spend.psbt) };
}

const mempool = () => node.rpc<string[]>('getrawmempool');

/** A deposit of `owner`'s to the derived address account/0/index (credited at the next settle). */
async function depositTo(index: number, amount: string, owner: SignedInUser | undefined) {
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
     VALUES ($1, 'BTC', 'bitcoin', $2, 'bitcoin', $3)`,
    [
      owner?.userId,
      bech32.encode('bcrt', [0, ...bech32.toWords(hex.decode(scriptAt(index).slice(4)))]),
      index,
    ],
  );
  await node.rpc('sendtoaddress', [await nodeAddressOf(scriptAt(index)), amount], WALLET);
}

beforeAll(async () => {
  node = await startLitecoinNode(['-mempoolreplacement=1']);
  await node.mine(101);
  t = await createTestApp({
    BTC_RPC_URL: node.rpcUrl,
    BTC_XPUB: account.publicExtendedKey,
    BTC_NETWORK: 'regtest',
  });
  const found = t.services.chainWatchers.find((w) => w.chain === 'bitcoin');
  if (!found) throw new Error('the app watches no Bitcoin');
  watcher = found;
  await setSetting(t, 'confirmations_btc', String(CONFIRMATIONS));
  await setSetting(t, 'max_daily_withdrawal', '100000000');
  alice = await spareStepUps(t, await verifiedCustomer(t));
  admin = await spareStepUps(t, await verifiedAdmin(t));
  expect((await watcher.tick()).state).toBe('ok');
  // Alice's deposits, to derived addresses account/0/0..2: the outputs payouts spend.
  const others = [await verifiedCustomer(t), await verifiedCustomer(t)];
  for (const [index, amount, owner] of [
    [0, '0.9', alice],
    [1, '0.3', others[0]],
    [2, '0.2', others[1]],
  ] as const) {
    await depositTo(index, amount, owner);
  }
  await settle(CONFIRMATIONS);
  expect((await walletOf(t, alice.userId, 'BTC'))?.balance).toBe('0.9');
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

describe('a batch of three payouts', () => {
  it('is built, signed offline, broadcast, and completed by the chain with each destination paid exactly', async () => {
    const to = [await destination(), await destination(), await destination()];
    const amounts = ['0.1', '0.2', '0.15'];
    const ids: string[] = [];
    for (const [k, d] of to.entries())
      ids.push(await approvedWithdrawal(amounts[k] ?? '0', d.address));

    const built = await build();
    expect(built.statusCode, built.body).toBe(200);
    const { batch, file } = built.json();
    expect(batch.payouts.map((p: { id: string }) => p.id).sort()).toEqual([...ids].sort());
    expect(file.fileName).toMatch(/\.psbt$/);
    // Before it is sent, nothing can reject or complete these payouts by hand.
    const reject = await call(t, {
      method: 'POST',
      url: `/api/admin/withdrawals/${ids[0]}/reject`,
      cookie: admin.cookie,
      body: { reason: 'no', stepUp: stepUpFor(admin) },
    });
    expect(reject.statusCode).toBe(409);

    const sent = await submit(batch.id, sign(file.content));
    expect(sent.statusCode, sent.body).toBe(200);
    const [txid] = sent.json().sent as string[];
    expect(await mempool()).toEqual([txid]);
    // Sent, not final: the customer sees it confirming.
    await settle(1);
    const history = await call(t, {
      method: 'GET',
      url: '/api/transactions',
      cookie: alice.cookie,
    });
    const row = history.json().items.find((i: { id: string }) => i.id === ids[0]);
    expect(row).toMatchObject({
      status: 'pending',
      transactionHash: txid,
      confirmations: { current: 1, required: CONFIRMATIONS },
    });
    await settle(CONFIRMATIONS - 1);

    for (const [k, id] of ids.entries()) {
      expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: txid });
      const p = await payout(id);
      expect(p?.state).toBe('completed');
      expect(BigInt(p?.network_fee_minor ?? '0')).toBeGreaterThan(0n);
      // The node's wallet owns the destinations, so it knows the transaction.
      const { hex: bytes } = await node.rpc<{ hex: string }>('gettransaction', [txid], WALLET);
      const raw = await node.rpc<{ vout: { value: number; scriptPubKey: { hex: string } }[] }>(
        'decoderawtransaction',
        [bytes],
      );
      const paid = raw.vout.filter((o) => o.scriptPubKey.hex === to[k]?.script);
      expect(paid.map((o) => sats(o.value))).toEqual([sats(Number(amounts[k]))]);
    }
    // The fee shares add up to the batch's fee.
    const overview = await call(t, {
      method: 'GET',
      url: '/api/admin/payouts?chain=bitcoin',
      cookie: admin.cookie,
    });
    const shown = overview.json().batches.find((b: { id: string }) => b.id === batch.id);
    expect(shown.state).toBe('completed');
    const shares = await Promise.all(
      ids.map(async (id) => BigInt((await payout(id))?.network_fee_minor ?? '0')),
    );
    expect(sats(Number(shown.fee))).toBe(shares.reduce((a, b) => a + b, 0n));
    await t.services.outbox.deliver({ wait: 'all' });
    expect(mailsTo(t, alice.email).some((m) => m.includes('Your withdrawal has been sent'))).toBe(
      true,
    );
  });
});

describe('a fee bump', () => {
  it('builds a replacement with the same payments; the replacement confirms and settles the payout', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.05', to.address);
    const { batch, file } = (await build()).json();
    const first = await submit(batch.id, sign(file.content));
    const [original] = first.json().sent as string[];

    const bumped = await call(t, {
      method: 'POST',
      url: `/api/admin/payouts/batches/${batch.id}/bump`,
      cookie: admin.cookie,
      body: { feeRate: 30, stepUp: stepUpFor(admin) },
    });
    expect(bumped.statusCode, bumped.body).toBe(200);
    const second = await submit(batch.id, sign(bumped.json().file.content));
    expect(second.statusCode, second.body).toBe(200);
    const [replacement] = second.json().sent as string[];
    expect(replacement).not.toBe(original);
    expect(await mempool()).toEqual([replacement]);

    await settle(CONFIRMATIONS);
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: replacement });
    const { rows } = await t.services.pool.query<{ tx_hash: string; state: string }>(
      'SELECT tx_hash, state FROM payout_transactions WHERE batch_id = $1 ORDER BY created_at',
      [batch.id],
    );
    expect(rows).toEqual([
      { tx_hash: original, state: 'replaced' },
      { tx_hash: replacement, state: 'mined' },
    ]);
  });
});

describe('a reorganisation', () => {
  it('takes a confirming payout back to broadcast; it completes once mined again', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.02', to.address);
    const { batch, file } = (await build()).json();
    const [txid] = (await submit(batch.id, sign(file.content))).json().sent as string[];
    const [included] = await node.mine(1);
    expect((await watcher.tick()).state).toBe('ok');
    expect((await payout(id))?.state).toBe('confirming');

    // The block leaves the chain; a longer chain of empty blocks replaces it.
    await node.rpc('invalidateblock', [included]);
    for (let i = 0; i < 2; i++) {
      await node.rpc('generateblock', [await node.rpc<string>('getnewaddress', [], WALLET), []]);
    }
    expect((await watcher.tick()).state).toBe('ok');
    expect(await payout(id)).toMatchObject({ state: 'broadcast', tx_hash: txid });
    expect((await ledgerRow(id))?.status).toBe('pending');
    // The transaction went back to the mempool; the next blocks include it again.
    expect(await mempool()).toEqual([txid]);
    await settle(CONFIRMATIONS);
    expect(await ledgerRow(id)).toEqual({ status: 'completed', transaction_hash: txid });
  });
});

describe('what is refused', () => {
  it('a signed file that differs from the batch is refused with what differs, and nothing is sent', async () => {
    const to = await destination();
    await approvedWithdrawal('0.01', to.address);
    const { batch, file } = (await build()).json();
    // A signed transaction over the same input that pays someone else.
    const other = await otherSpendOf(batch.id);
    const refused = await withoutChange(t, () => submit(batch.id, other.signed));
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(/^The signed file was refused: /);
    // Garbage is refused too.
    const garbage = await withoutChange(t, () => submit(batch.id, 'not a psbt'));
    expect(garbage.statusCode).toBe(400);
    expect(await mempool()).toEqual([]);
    const signed = sign(file.content);
    // The batch's own signature passes afterwards.
    const sent = await submit(batch.id, signed);
    expect(sent.statusCode, sent.body).toBe(200);
    // The same file again: not sent twice.
    const again = await submit(batch.id, signed);
    expect(again.json()).toMatchObject({ sent: [], alreadySent: sent.json().sent });
    await settle(CONFIRMATIONS);
  });

  it('a typed hash that pays something else is refused with what it pays; the hold stays', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.02', to.address);
    // Any other transaction: the node wallet paying itself.
    const elsewhere = await node.rpc<string>(
      'sendtoaddress',
      [await node.rpc<string>('getnewaddress', [], WALLET), '0.02'],
      WALLET,
    );
    const refused = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/complete`,
        cookie: admin.cookie,
        body: { reference: elsewhere, stepUp: stepUpFor(admin) },
      }),
    );
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toMatch(
      /^This transaction pays .* not 0\.02 BTC to bcrt1.*The payout stays held\.$/,
    );
    expect((await ledgerRow(id))?.status).toBe('pending');
    expect((await payout(id))?.state).toBe('approved');
    await settle(1);
  });
});

describe('inputs spent elsewhere', () => {
  it('returns the batch’s payouts to approved once, when the other spend is confirmed', async () => {
    // A fresh deposit, so that outputs remain to pay from whichever input the other spend
    // takes (the earlier tests leave a set of outputs that depends on their random hashes).
    await depositTo(3, '0.5', await verifiedCustomer(t));
    await settle(CONFIRMATIONS);
    const to = await destination();
    const id = await approvedWithdrawal('0.03', to.address);
    const { batch } = (await build()).json();
    // The operator spends one of the batch's inputs with another transaction.
    const other = await otherSpendOf(batch.id);
    const { hex: raw } = checkSignedBitcoin(other.psbt, other.signed);
    await node.rpc('sendrawtransaction', [raw]);

    await settle(1);
    expect((await payout(id))?.state).toBe('in-batch');
    await settle(CONFIRMATIONS);
    expect(await payout(id)).toMatchObject({ state: 'approved', returned_count: 1 });
    expect((await ledgerRow(id))?.status).toBe('pending');
    const { rows: left } = await t.services.pool.query(
      'SELECT 1 FROM payout_inputs WHERE batch_id = $1',
      [batch.id],
    );
    expect(left).toEqual([]);
    await settle(3);
    expect((await payout(id))?.returned_count).toBe(1);
    const audits = await t.services.pool.query(
      `SELECT 1 FROM audit_log WHERE action = 'payouts.returned' AND target_id = $1`,
      [batch.id],
    );
    expect(audits.rowCount).toBe(1);

    // A new batch pays it from the outputs still unspent.
    const again = await build();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().batch.payouts.map((p: { id: string }) => p.id)).toContain(id);
    const sent = await submit(again.json().batch.id, sign(again.json().file.content));
    expect(sent.statusCode, sent.body).toBe(200);
    await settle(CONFIRMATIONS);
    expect((await ledgerRow(id))?.status).toBe('completed');
  });
});

describe('in parallel', () => {
  it('20 builds give one batch, and 20 submits of one signed file one broadcast', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.01', to.address);
    await spareStepUps(t, admin, 100);
    const builds = await Promise.all(Array.from({ length: 20 }, () => build()));
    const ok = builds.filter((b) => b.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(builds.filter((b) => b.statusCode === 409)).toHaveLength(19);
    const first = ok[0];
    if (!first) throw new Error('no build answered 200');
    const { batch, file } = first.json();
    const signed = sign(file.content);
    const submits = await Promise.all(Array.from({ length: 20 }, () => submit(batch.id, signed)));
    expect(submits.every((s) => s.statusCode === 200)).toBe(true);
    const sent = submits.flatMap((s) => s.json().sent as string[]);
    expect(sent).toHaveLength(1);
    expect(await mempool()).toEqual(sent);
    await settle(CONFIRMATIONS);
    expect((await ledgerRow(id))?.status).toBe('completed');
  });
});

describe('a node that does not answer', () => {
  it('answers 503 to a build and to a typed hash, changing nothing', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.01', to.address);
    await node.stop();
    const built = await withoutChange(t, () => build());
    expect(built.statusCode).toBe(503);
    expect(errorOf(built)).toMatchObject({
      error: 'UNAVAILABLE',
      message: expect.stringMatching(/^The Bitcoin node did not answer .*nothing was changed/),
    });
    const typed = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/complete`,
        cookie: admin.cookie,
        body: { reference: 'ab'.repeat(32), stepUp: stepUpFor(admin) },
      }),
    );
    expect(typed.statusCode).toBe(503);
    expect(await payout(id)).toMatchObject({ state: 'approved', tx_hash: null });
  });
});
