import { bech32, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { withTransaction } from '@server/db/tx';
import { type Anvil, startAnvil } from '@server-test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '@server-test/fixtures/ethereum/test-chain';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { type LitecoinNode, startLitecoinNode, WALLET } from '@server-test/litecoin-node';
import {
  expectReconciled,
  fund,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { type Address, parseEther, parseGwei } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainWatcher } from '../chains';
import { bitcoinP2wpkh } from '../chains';
import { buildBitcoinBatch } from './bitcoin-psbt-build';
import { checkSignedBitcoin } from './bitcoin-psbt-check';
import { signEthereumFile } from './ethereum-payout-sign';
import { type EthPayoutFile, PAYOUT_DERIVATION_PATH } from './ethereum-payout-tx';
import { signPayoutFile } from './offline-signer';

/**
 * Every stuck state has an exit (issue 32), on real nodes (litecoind regtest and anvil): a
 * built batch nobody signed is abandoned (its payouts approved again, its inputs and nonces
 * free), once, however many ask at once or race a submit; an Ethereum transaction whose
 * max fee is below the base fee is refused at submit, nothing recorded or sent; a broadcast
 * the node refuses answers with the node's words and shows on the batch; and a payout
 * reversed on chain is re-sent (the same bytes) or, by two staff, approved again.
 */

const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const BTC_ACCOUNT_PATH = "m/84'/1'/0'";
const btcAccount = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC), {
  private: 0x04358394,
  public: 0x043587cf,
}).derive(BTC_ACCOUNT_PATH);
const ETH_XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive(
  "m/44'/60'/0'",
).publicExtendedKey;
const CONFIRMATIONS = 2;

let t: TestApp;
let node: LitecoinNode;
let anvil: Anvil;
let chain: TestChain;
let btcWatcher: ChainWatcher;
let ethWatcher: ChainWatcher;
let customer: SignedInUser;
let admin: SignedInUser;
let checker: SignedInUser;
let payoutAddress: Address;

const signBitcoin = (psbt: string) =>
  signPayoutFile(psbt, MNEMONIC, { bitcoinAccountPath: BTC_ACCOUNT_PATH }).content;
const signEthereum = (file: EthPayoutFile) =>
  JSON.stringify(signEthereumFile(file, MNEMONIC), null, 2);

function scriptAt(change: 0 | 1, index: number): string {
  const key = btcAccount.deriveChild(change).deriveChild(index).publicKey;
  if (!key) throw new Error('no key');
  return bitcoinP2wpkh(key, 'regtest').script;
}

const regtestAddress = (script: string) =>
  bech32.encode('bcrt', [0, ...bech32.toWords(hex.decode(script.slice(4)))]);

async function nodeAddressOf(script: string): Promise<string> {
  const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
    script,
  ]);
  const address = decoded.address ?? decoded.addresses?.[0];
  if (!address) throw new Error('no address');
  return address;
}

/** A fresh address of the node's wallet, written as customers write regtest addresses. */
async function btcDestination(): Promise<string> {
  const address = await node.rpc<string>('getnewaddress', [], WALLET);
  const { scriptPubKey } = await node.rpc<{ scriptPubKey: string }>(
    'getaddressinfo',
    [address],
    WALLET,
  );
  return regtestAddress(scriptPubKey);
}

const payoutSigner = mnemonicToAccount(MNEMONIC, { path: PAYOUT_DERIVATION_PATH });

const ethDestination = (): Address => privateKeyToAccount(generatePrivateKey()).address;

async function tickBoth() {
  btcWatcher.retryNow();
  ethWatcher.retryNow();
  expect((await btcWatcher.tick()).state).toBe('ok');
  expect((await ethWatcher.tick()).state).toBe('ok');
}

async function mineBitcoin(blocks = 1) {
  for (let i = 0; i < blocks; i++) {
    await node.mine(1);
    await tickBoth();
  }
}

async function mineEthereum(blocks = 1) {
  for (let i = 0; i < blocks; i++) {
    await anvil.mine();
    await tickBoth();
  }
}

/** A withdrawal the customer asks for and an admin approves; its ledger row id. */
async function approvedWithdrawal(
  assetId: 'BTC' | 'ETH',
  amount: string,
  address: string,
): Promise<string> {
  const res = await requestWithdrawal(t, customer, { assetId, amount, address });
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

const build = (c: 'bitcoin' | 'ethereum') =>
  call(t, {
    method: 'POST',
    url: '/api/admin/payouts/batches',
    cookie: admin.cookie,
    body: { chain: c, stepUp: stepUpFor(admin) },
  });

async function built(c: 'bitcoin' | 'ethereum'): Promise<{ batchId: string; file: string }> {
  const res = await build(c);
  expect(res.statusCode, res.body).toBe(200);
  return { batchId: res.json().batch.id, file: res.json().file.content };
}

const submit = (batchId: string, signed: string) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/payouts/batches/${batchId}/submit`,
    cookie: admin.cookie,
    body: { signed, stepUp: stepUpFor(admin) },
  });

const abandon = (batchId: string) =>
  call(t, {
    method: 'POST',
    url: `/api/admin/payouts/batches/${batchId}/abandon`,
    cookie: admin.cookie,
    body: { stepUp: stepUpFor(admin) },
  });

const overview = async (c: 'bitcoin' | 'ethereum') => {
  const res = await call(t, { url: `/api/admin/payouts?chain=${c}`, cookie: admin.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

type PayoutState = {
  state: string;
  batch_id: string | null;
  tx_hash: string | null;
  waiting_reason: string | null;
  returned_count: number;
  completed_at: Date | null;
};

async function payout(id: string): Promise<PayoutState> {
  const { rows } = await t.services.pool.query<PayoutState>(
    `SELECT state, batch_id::text, tx_hash, waiting_reason, returned_count, completed_at
       FROM payouts WHERE transaction_id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new Error(`no payout ${id}`);
  return row;
}

async function ledgerRow(id: string) {
  const { rows } = await t.services.pool.query<{ status: string; transaction_hash: string | null }>(
    'SELECT status, transaction_hash FROM transactions WHERE id = $1',
    [id],
  );
  return rows[0];
}

async function candidates(batchId: string) {
  const { rows } = await t.services.pool.query<{
    state: string;
    nonce: number | null;
    tx_hash: string | null;
    send_error: string | null;
  }>(
    `SELECT state, nonce, tx_hash, send_error FROM payout_transactions WHERE batch_id = $1
      ORDER BY created_at, nonce`,
    [batchId],
  );
  return rows;
}

async function batchState(batchId: string): Promise<string | undefined> {
  const { rows } = await t.services.pool.query<{ state: string }>(
    'SELECT state FROM payout_batches WHERE id = $1',
    [batchId],
  );
  return rows[0]?.state;
}

async function inputsOf(batchId: string): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ o: string }>(
    `SELECT tx_hash || ':' || output_index AS o FROM payout_inputs WHERE batch_id = $1 ORDER BY 1`,
    [batchId],
  );
  return rows.map((r) => r.o);
}

async function auditCount(action: string, targetId: string): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND target_id = $2',
    [action, targetId],
  );
  return rows[0]?.n ?? 0;
}

const mempool = () => node.rpc<string[]>('getrawmempool');

async function poolOfPayout(): Promise<string[]> {
  const content = await anvil.rpc<{
    pending: Record<string, Record<string, { hash: string }>>;
    queued: Record<string, Record<string, { hash: string }>>;
  }>('txpool_content');
  const out: string[] = [];
  for (const part of [content.pending, content.queued]) {
    for (const [from, byNonce] of Object.entries(part)) {
      if (from.toLowerCase() !== payoutAddress.toLowerCase()) continue;
      for (const tx of Object.values(byNonce)) out.push(tx.hash);
    }
  }
  return out;
}

/**
 * Another transaction spending the first input of a batch (to the node's wallet), signed
 * with the operator's key as if paid from another wallet: its hex.
 */
async function otherSpendOf(batchId: string): Promise<string> {
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
  const { rows: origin } = await t.services.pool.query<{ change: 0 | 1; derivation_index: number }>(
    `SELECT 0 AS change, a.derivation_index FROM chain_deposits d JOIN deposit_addresses a ON a.address = d.address
      WHERE d.tx_hash = $1 AND d.output_index = $2
     UNION ALL SELECT 1, derivation_index FROM payout_change_outputs WHERE tx_hash = $1 AND output_index = $2`,
    [input.tx_hash, input.output_index],
  );
  const from = origin[0];
  if (!from) throw new Error('unknown input');
  const key = btcAccount.deriveChild(from.change).deriveChild(from.derivation_index).publicKey;
  const changeKey = btcAccount.deriveChild(1).deriveChild(999).publicKey;
  if (!key || !changeKey) throw new Error('no key');
  const { scriptPubKey } = await node.rpc<{ scriptPubKey: string }>(
    'getaddressinfo',
    [await node.rpc<string>('getnewaddress', [], WALLET)],
    WALLET,
  );
  const spend = buildBitcoinBatch({
    spendable: [
      {
        txid: input.tx_hash,
        vout: input.output_index,
        amount: BigInt(input.amount_minor),
        script: bitcoinP2wpkh(key, 'regtest').script,
        change: from.change,
        index: from.derivation_index,
        publicKey: hex.encode(key),
      },
    ],
    payouts: [{ id: 'elsewhere', script: scriptPubKey, amount: 1_000_000n }],
    feeRate: 2,
    change: {
      index: 999,
      script: bitcoinP2wpkh(changeKey, 'regtest').script,
      publicKey: hex.encode(changeKey),
    },
    accountFingerprint: btcAccount.fingerprint,
    keyOrigin: null,
  });
  if (!spend) throw new Error('the other spend was not built');
  return checkSignedBitcoin(spend.psbt, signBitcoin(spend.psbt)).hex;
}

/**
 * What the watcher does once a completed payout's transaction has left the chain for good
 * (the reversal itself is the chain watcher's part of issue 32): the ledger row completed,
 * `completed_at` set, the payout 'reversed-on-chain', its transaction 'conflicted' and its
 * batch 'abandoned'. Here the transaction left the node's pool before any block held it.
 */
async function markReversed(id: string) {
  const p = await payout(id);
  if (!p.tx_hash || !p.batch_id) throw new Error('not sent');
  await withTransaction(t.services.pool, async (client) => {
    await t.services.withdrawals.settle(client, id, {
      transactionHash: p.tx_hash as string,
      processedBy: admin.userId,
    });
    await client.query(
      `UPDATE payouts SET state = 'reversed-on-chain', completed_at = now() WHERE transaction_id = $1`,
      [id],
    );
    await client.query(
      `UPDATE payout_transactions SET state = 'conflicted' WHERE batch_id = $1 AND tx_hash = $2`,
      [p.batch_id, p.tx_hash],
    );
    await client.query(`UPDATE payout_batches SET state = 'abandoned' WHERE id = $1`, [p.batch_id]);
  });
}

/**
 * A deposit of `owner`'s to account/0/index (one address per customer and chain), credited
 * at the confirmations: the outputs batches spend.
 */
async function depositTo(index: number, amount: string, owner: SignedInUser) {
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
     VALUES ($1, 'BTC', 'bitcoin', $2, 'bitcoin', $3)`,
    [owner.userId, regtestAddress(scriptAt(0, index)), index],
  );
  await node.rpc('sendtoaddress', [await nodeAddressOf(scriptAt(0, index)), amount], WALLET);
}

beforeAll(async () => {
  [node, anvil] = await Promise.all([startLitecoinNode(['-mempoolreplacement=1']), startAnvil()]);
  await node.mine(101);
  chain = testChain(anvil);
  const usdt = await chain.deployToken(6);
  t = await createTestApp({
    BTC_RPC_URL: node.rpcUrl,
    BTC_XPUB: btcAccount.publicExtendedKey,
    BTC_NETWORK: 'regtest',
    ETH_RPC_URL: anvil.url,
    ETH_XPUB,
    USDT_ERC20_CONTRACT: usdt,
  });
  const watchers = t.services.chainWatchers;
  const b = watchers.find((w) => w.chain === 'bitcoin');
  const e = watchers.find((w) => w.chain === 'ethereum');
  if (!b || !e || !t.services.payouts.payoutAddress) throw new Error('both chains are watched');
  btcWatcher = b;
  ethWatcher = e;
  payoutAddress = t.services.payouts.payoutAddress;
  await setSetting(t, 'confirmations_btc', String(CONFIRMATIONS));
  await setSetting(t, 'confirmations_eth', String(CONFIRMATIONS));
  await setSetting(t, 'max_daily_withdrawal', '100000000');
  customer = await spareStepUps(t, await verifiedCustomer(t));
  admin = await spareStepUps(t, await verifiedAdmin(t), 400);
  checker = await spareStepUps(t, await verifiedAdmin(t));
  await fund(t, customer.userId, 'ETH', '20');
  await chain.sendEth(payoutAddress, parseEther('50'));
  await anvil.mine();
  await tickBoth();
  await fund(t, customer.userId, 'BTC', '1');
  for (const [index, amount] of [
    [0, '0.5'],
    [1, '0.4'],
    [2, '0.3'],
  ] as const) {
    await depositTo(index, amount, await verifiedCustomer(t));
  }
  await mineBitcoin(CONFIRMATIONS);
}, 180_000);

afterAll(async () => {
  await node?.stop();
  await anvil?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

describe('abandoning a built batch nobody signed', () => {
  it('Bitcoin: its payouts are approved again, its inputs free, a late signed copy refused; the next build pays them', async () => {
    const id = await approvedWithdrawal('BTC', '0.05', await btcDestination());
    const { batchId, file } = await built('bitcoin');
    const reserved = await inputsOf(batchId);
    expect(reserved.length).toBeGreaterThan(0);

    const res = await abandon(batchId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().batch).toMatchObject({ id: batchId, state: 'abandoned' });
    expect(await batchState(batchId)).toBe('abandoned');
    expect((await candidates(batchId)).map((c) => c.state)).toEqual(['abandoned']);
    expect(await inputsOf(batchId)).toEqual([]);
    expect(await payout(id)).toMatchObject({
      state: 'approved',
      batch_id: null,
      tx_hash: null,
      returned_count: 0,
      waiting_reason: expect.stringMatching(/^Its batch \w{8} was abandoned by staff/),
    });
    expect(await auditCount('payouts.batch.abandon', batchId)).toBe(1);
    // The file signed after all: refused, nothing sent.
    const late = await withoutChange(t, () => submit(batchId, signBitcoin(file)));
    expect(late.statusCode).toBe(409);
    expect(await mempool()).toEqual([]);
    // Abandoned again: 409, nothing changes.
    const again = await withoutChange(t, () => abandon(batchId));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toMatch(/already abandoned/);

    // The next build may spend the same outputs, and pays the payout.
    const next = await built('bitcoin');
    expect((await inputsOf(next.batchId)).some((o) => reserved.includes(o))).toBe(true);
    const sent = await submit(next.batchId, signBitcoin(next.file));
    expect(sent.statusCode, sent.body).toBe(200);
    await mineBitcoin(CONFIRMATIONS);
    expect((await ledgerRow(id))?.status).toBe('completed');
  });

  it('Ethereum: a max fee below the base fee is refused at submit, naming both; abandoned, the next build uses the same nonce', async () => {
    const to = ethDestination();
    const id = await approvedWithdrawal('ETH', '0.07', to);
    const { batchId, file } = await built('ethereum');
    const parsed = JSON.parse(file) as EthPayoutFile;
    const nonce = parsed.entries[0]?.nonce;
    expect(typeof nonce).toBe('number');
    // The network's base fee rises above what the batch was built to pay.
    await anvil.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${parseGwei('50').toString(16)}`]);
    await mineEthereum();
    const signed = signEthereum(parsed);
    const refused = await withoutChange(t, () => submit(batchId, signed));
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused)).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(errorOf(refused).message).toMatch(
      new RegExp(
        `nonce ${nonce}: maxFeePerGas [\\d.]+ gwei is below the latest block's base fee of [\\d.]+ gwei: the node would never mine it`,
      ),
    );
    expect(await poolOfPayout()).toEqual([]);
    expect((await candidates(batchId)).map((c) => c.state)).toEqual(['unsigned']);

    const res = await abandon(batchId);
    expect(res.statusCode, res.body).toBe(200);
    expect(await candidates(batchId)).toMatchObject([{ state: 'abandoned', nonce }]);
    expect(await payout(id)).toMatchObject({ state: 'approved', batch_id: null });
    const next = await built('ethereum');
    const entries = (JSON.parse(next.file) as EthPayoutFile).entries;
    expect(entries.map((e) => [e.payoutIds, e.nonce])).toEqual([[[id], nonce]]);
    const sent = await submit(next.batchId, signEthereum(JSON.parse(next.file)));
    expect(sent.statusCode, sent.body).toBe(200);
    for (let i = 0; i < CONFIRMATIONS + 2 && (await payout(id)).state !== 'completed'; i++) {
      await mineEthereum();
    }
    expect((await ledgerRow(id))?.status).toBe('completed');
    expect(await chain.client.getBalance({ address: to })).toBe(parseEther('0.07'));
  });

  it('is refused once any transaction of the batch was sent (409 saying why), changing nothing', async () => {
    const id = await approvedWithdrawal('BTC', '0.01', await btcDestination());
    const { batchId, file } = await built('bitcoin');
    expect((await submit(batchId, signBitcoin(file))).statusCode).toBe(200);
    const res = await withoutChange(t, () => abandon(batchId));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).message).toMatch(/^This batch is broadcast: only a built batch/);
    const unknown = await withoutChange(t, () => abandon('5f0c7a52-1111-4222-8333-944455556666'));
    expect(unknown.statusCode).toBe(404);
    await mineBitcoin(CONFIRMATIONS);
    expect((await ledgerRow(id))?.status).toBe('completed');
  });

  it('ten at once: one abandons, nine are 409, one audit row; an abandon racing a submit: one wins whole', async () => {
    const id = await approvedWithdrawal('BTC', '0.02', await btcDestination());
    const { batchId } = await built('bitcoin');
    const answers = await Promise.all(Array.from({ length: 10 }, () => abandon(batchId)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(9);
    expect(await auditCount('payouts.batch.abandon', batchId)).toBe(1);
    expect(await payout(id)).toMatchObject({ state: 'approved', batch_id: null });

    // Built again, then abandoned and submitted at the same moment.
    const race = await built('bitcoin');
    const [abandoned, submitted] = await Promise.all([
      abandon(race.batchId),
      submit(race.batchId, signBitcoin(race.file)),
    ]);
    expect([abandoned.statusCode, submitted.statusCode].sort()).toEqual([200, 409]);
    if (abandoned.statusCode === 200) {
      expect(await mempool()).toEqual([]);
      expect(await candidates(race.batchId)).toMatchObject([{ state: 'abandoned' }]);
      expect(await inputsOf(race.batchId)).toEqual([]);
      expect(await payout(id)).toMatchObject({ state: 'approved', batch_id: null });
      const last = await built('bitcoin');
      expect((await submit(last.batchId, signBitcoin(last.file))).statusCode).toBe(200);
    } else {
      expect(errorOf(abandoned).message).toMatch(/broadcast/);
      expect(await batchState(race.batchId)).toBe('broadcast');
      expect(await mempool()).toHaveLength(1);
      expect(await auditCount('payouts.batch.abandon', race.batchId)).toBe(0);
    }
    await mineBitcoin(CONFIRMATIONS);
    expect((await ledgerRow(id))?.status).toBe('completed');
  });
});

describe('a broadcast the node refuses', () => {
  it('answers 409 with the node’s reason, stores it on the transaction and shows it beside the batch', async () => {
    const id = await approvedWithdrawal('BTC', '0.03', await btcDestination());
    const { batchId, file } = await built('bitcoin');
    // One of the batch's inputs is spent by another transaction, mined before the upload
    // (no tick: the watcher has not seen it yet).
    await node.rpc('sendrawtransaction', [await otherSpendOf(batchId)]);
    await node.mine(1);

    const res = await submit(batchId, signBitcoin(file));
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ error: 'CONFLICT' });
    expect(errorOf(res).message).toMatch(
      /^The Bitcoin node refused transaction [0-9a-f]{64}: Bitcoin node: sendrawtransaction failed: .*(missing|spent).*It is recorded as signed/,
    );
    const [cand] = await candidates(batchId);
    expect(cand?.state).toBe('broadcast');
    expect(cand?.send_error).toMatch(/sendrawtransaction failed: .*(missing|spent)/);
    const shown = (await overview('bitcoin')).batches.find((b: { id: string }) => b.id === batchId);
    expect(shown.sendErrors).toEqual([
      { txHash: cand?.tx_hash, nonce: null, message: cand?.send_error, at: expect.any(String) },
    ]);
    expect(shown.feeAsset).toBe('BTC');

    // The other spend confirmed: the batch is given up and its payout approved again.
    await tickBoth();
    await mineBitcoin(CONFIRMATIONS);
    expect(await payout(id)).toMatchObject({ state: 'approved', returned_count: 1 });
    const next = await built('bitcoin');
    expect((await submit(next.batchId, signBitcoin(next.file))).statusCode).toBe(200);
    expect((await candidates(next.batchId))[0]?.send_error).toBeNull();
    await mineBitcoin(CONFIRMATIONS);
    expect((await ledgerRow(id))?.status).toBe('completed');
  });
});

describe('a payout reversed on chain', () => {
  it('is listed first; re-sent with a step-up, the same bytes go out and it waits for the chain again', async () => {
    const to = ethDestination();
    const id = await approvedWithdrawal('ETH', '0.04', to);
    const { batchId, file } = await built('ethereum');
    const res = await submit(batchId, signEthereum(JSON.parse(file)));
    expect(res.statusCode, res.body).toBe(200);
    const [hash] = res.json().sent as string[];
    await anvil.rpc('anvil_dropTransaction', [hash]);
    await markReversed(id);
    expect((await ledgerRow(id))?.status).toBe('completed');

    const shown = await overview('ethereum');
    expect(shown.reversed.map((p: { id: string }) => p.id)).toEqual([id]);
    // The nonce was never mined and no live transaction waits on it: no gap to show.
    expect(shown.nonceGap).toBeNull();
    expect(shown.reversed[0]).toMatchObject({
      state: 'reversed-on-chain',
      txHash: hash,
      networkFeeAsset: 'ETH',
    });

    // Not a reversed payout: refused, nothing changed.
    const other = await approvedWithdrawal('ETH', '0.01', ethDestination());
    const resendOther = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/payouts/${other}/resend`,
        cookie: admin.cookie,
        body: { stepUp: stepUpFor(admin) },
      }),
    );
    expect(resendOther.statusCode).toBe(409);
    expect(errorOf(resendOther).message).toMatch(/^This payout is approved, not reversed on chain/);

    const resent = await call(t, {
      method: 'POST',
      url: `/api/admin/payouts/${id}/resend`,
      cookie: admin.cookie,
      body: { stepUp: stepUpFor(admin) },
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toEqual({ txHash: hash, payouts: [id] });
    expect(await poolOfPayout()).toEqual([hash]);
    expect(await payout(id)).toMatchObject({ state: 'broadcast', tx_hash: hash });
    expect(await candidates(batchId)).toMatchObject([{ state: 'broadcast', tx_hash: hash }]);
    expect(await batchState(batchId)).toBe('broadcast');
    expect(await auditCount('payouts.resend', id)).toBe(1);
    expect((await overview('ethereum')).reversed).toEqual([]);
    // Mined and confirmed: completed once more, its ledger row left as it was, paid once.
    const ledgerBefore = await ledgerRow(id);
    for (let i = 0; i < CONFIRMATIONS + 2 && (await payout(id)).state !== 'completed'; i++) {
      await mineEthereum();
    }
    expect((await payout(id)).state).toBe('completed');
    expect(await ledgerRow(id)).toEqual(ledgerBefore);
    expect(await chain.client.getBalance({ address: to })).toBe(parseEther('0.04'));
    // The other one is paid by the next build (the two-person return below builds too).
    const next = await built('ethereum');
    expect((await submit(next.batchId, signEthereum(JSON.parse(next.file)))).statusCode).toBe(200);
    for (let i = 0; i < CONFIRMATIONS + 2 && (await payout(other)).state !== 'completed'; i++) {
      await mineEthereum();
    }
    expect((await ledgerRow(other))?.status).toBe('completed');
  });

  it('is returned to approved only by two staff: proposed (nothing moves), approved by another; paid again, debited once', async () => {
    const to = ethDestination();
    const id = await approvedWithdrawal('ETH', '0.06', to);
    const { batchId, file } = await built('ethereum');
    const res = await submit(batchId, signEthereum(JSON.parse(file)));
    expect(res.statusCode, res.body).toBe(200);
    const [hash] = res.json().sent as string[];
    await anvil.rpc('anvil_dropTransaction', [hash]);
    // Its nonce is used by another transaction of the payout key: it can never confirm.
    const entry = (JSON.parse(file) as EthPayoutFile).entries[0];
    if (!entry) throw new Error('no entry');
    const elsewhere = await payoutSigner.signTransaction({
      type: 'eip1559',
      chainId: entry.chainId,
      nonce: entry.nonce,
      to: ethDestination(),
      value: 5n,
      gas: 21_000n,
      maxFeePerGas: BigInt(entry.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
    });
    await markReversed(id);
    await anvil.rpc('eth_sendRawTransaction', [elsewhere]);
    await mineEthereum();
    const ledgerBefore = await ledgerRow(id);
    const completedAt = (await payout(id)).completed_at;
    expect(completedAt).not.toBeNull();

    const propose = (reason: string) =>
      call(t, {
        method: 'POST',
        url: `/api/admin/payouts/${id}/return`,
        cookie: admin.cookie,
        body: { reason, stepUp: stepUpFor(admin) },
      });
    const proposed = await propose('The transaction is gone from every explorer');
    expect(proposed.statusCode, proposed.body).toBe(202);
    const change = proposed.json().pending;
    expect(change).toMatchObject({ kind: 'payout.return' });
    expect(change.summary).toMatch(/^Pay again 0\.06 ETH to 0x/);
    expect(await payout(id)).toMatchObject({ state: 'reversed-on-chain', tx_hash: hash });

    // The proposer never approves it.
    const own = await withoutChange(t, () =>
      call(t, {
        method: 'POST',
        url: `/api/admin/changes/${change.id}/approve`,
        cookie: admin.cookie,
        body: { stepUp: stepUpFor(admin) },
      }),
    );
    expect(own.statusCode).toBe(403);

    const approved = await call(t, {
      method: 'POST',
      url: `/api/admin/changes/${change.id}/approve`,
      cookie: checker.cookie,
      body: { stepUp: stepUpFor(checker) },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await payout(id)).toMatchObject({
      state: 'approved',
      batch_id: null,
      tx_hash: null,
      completed_at: completedAt,
      returned_count: 1,
      waiting_reason: expect.stringMatching(/two staff approved paying it again/),
    });
    expect(await ledgerRow(id)).toEqual(ledgerBefore);
    expect(await auditCount('payouts.return', change.id)).toBe(1);

    // Proposed again now that it is approved: refused, nothing changed.
    const stale = await withoutChange(t, () => propose('again'));
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).message).toMatch(/^This payout is approved, not reversed on chain/);

    // Paid again by the next build; its completion leaves the ledger row as it was.
    const next = await built('ethereum');
    const entries = (JSON.parse(next.file) as EthPayoutFile).entries;
    expect(entries.map((e) => [e.payoutIds, e.nonce])).toEqual([[[id], entry.nonce + 1]]);
    expect((await submit(next.batchId, signEthereum(JSON.parse(next.file)))).statusCode).toBe(200);
    for (let i = 0; i < CONFIRMATIONS + 2 && (await payout(id)).state !== 'completed'; i++) {
      await mineEthereum();
    }
    expect((await payout(id)).state).toBe('completed');
    expect(await ledgerRow(id)).toEqual(ledgerBefore);
    expect(await chain.client.getBalance({ address: to })).toBe(parseEther('0.06'));
  });
});
