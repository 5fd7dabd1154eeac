import { bech32, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
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
  fund,
  requestWithdrawal,
  setSetting,
  spareStepUps,
  stepUpFor,
} from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainWatcher } from '../chains';

/**
 * One chain output settles one payout. Two withdrawals of the same amount to the same
 * address, and one payment made outside Coffer: its hash, typed for both, completes one.
 * On a real node (Litecoin Core in regtest, Bitcoin Core's JSON-RPC).
 */

const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const account = HDKey.fromMasterSeed(mnemonicToSeedSync(ABANDON), {
  private: 0x04358394,
  public: 0x043587cf,
}).derive("m/84'/1'/0'");

let t: TestApp;
let node: LitecoinNode;
let alice: SignedInUser;
let proposer: SignedInUser;
let approver: SignedInUser;
let watcher: ChainWatcher;

async function settle(blocks: number) {
  for (let i = 0; i < blocks; i++) {
    await node.mine(1);
    expect((await watcher.tick()).state).toBe('ok');
  }
}

/** A fresh address of the node's wallet: as the node writes it, and as customers write regtest addresses. */
async function destination(): Promise<{ node: string; customer: string }> {
  const address = await node.rpc<string>('getnewaddress', ['', 'bech32'], WALLET);
  const { scriptPubKey } = await node.rpc<{ scriptPubKey: string }>(
    'getaddressinfo',
    [address],
    WALLET,
  );
  const program = hex.decode(scriptPubKey.slice(4));
  return { node: address, customer: bech32.encode('bcrt', [0, ...bech32.toWords(program)]) };
}

async function approvedWithdrawal(amount: string, to: string): Promise<string> {
  const res = await requestWithdrawal(t, alice, { assetId: 'BTC', amount, address: to });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().transaction.id as string;
  const approved = await call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

/** The second staff member approves a pending change, with their own step-up. */
function approve(changeId: string) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/changes/${changeId}/approve`,
    cookie: approver.cookie,
    body: { stepUp: stepUpFor(approver) },
  });
}

/** Staff propose a hand completion by hash: the answer (202 with the pending change, or a refusal). */
function proposeCompletion(id: string, reference: string) {
  return call(t, {
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/complete`,
    cookie: proposer.cookie,
    body: { reference, stepUp: stepUpFor(proposer) },
  });
}

async function payoutOf(id: string) {
  const { rows } = await t.services.pool.query<{
    state: string;
    tx_hash: string | null;
    output_index: number | null;
  }>('SELECT state, tx_hash, output_index FROM payouts WHERE transaction_id = $1', [id]);
  return rows[0];
}

beforeAll(async () => {
  node = await startLitecoinNode();
  await node.mine(101);
  t = await createTestApp({
    BTC_RPC_URL: node.rpcUrl,
    BTC_XPUB: account.publicExtendedKey,
    BTC_NETWORK: 'regtest',
  });
  const found = t.services.chainWatchers.find((w) => w.chain === 'bitcoin');
  if (!found) throw new Error('the app watches no Bitcoin');
  watcher = found;
  await setSetting(t, 'confirmations_btc', '2');
  await setSetting(t, 'max_daily_withdrawal', '100000000');
  alice = await spareStepUps(t, await verifiedCustomer(t));
  proposer = await spareStepUps(t, await verifiedAdmin(t));
  approver = await spareStepUps(t, await verifiedAdmin(t));
  await fund(t, alice.userId, 'BTC', '1');
  expect((await watcher.tick()).state).toBe('ok');
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await t?.close();
});

describe('a typed hash', () => {
  it('settles one of two payouts of the same address and amount; the second is refused naming the first', async () => {
    const to = await destination();
    const first = await approvedWithdrawal('0.004', to.customer);
    const second = await approvedWithdrawal('0.004', to.customer);
    // One payment of 0.004 made outside Coffer, mined.
    const paid = await node.rpc<string>('sendtoaddress', [to.node, '0.004'], WALLET);
    await settle(1);

    const proposed = await proposeCompletion(first, paid);
    expect(proposed.statusCode, proposed.body).toBe(202);
    const approved = await approve(proposed.json().pending.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await payoutOf(first)).toMatchObject({ state: 'confirming', tx_hash: paid });

    // The same output typed for the second payout: refused at the proposal, naming the first.
    const refused = await withoutChange(t, () => proposeCompletion(second, paid));
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      `This transaction's output is already claimed by payout ${first} (confirming): one output settles one payout. The payout stays held.`,
    );
    expect(await payoutOf(second)).toMatchObject({ state: 'approved', tx_hash: null });

    await settle(1);
    expect((await payoutOf(first))?.state).toBe('completed');
    expect((await payoutOf(second))?.state).toBe('approved');
    // The first's ledger row completed once; the second still held, not paid.
    const { rows } = await t.services.pool.query<{ id: string; status: string }>(
      'SELECT id, status FROM transactions WHERE id = ANY($1::uuid[])',
      [[first, second]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [first]: 'completed',
      [second]: 'pending',
    });
  });

  it('proposed for both before either is approved: the second approval is refused, and nothing is written twice', async () => {
    const to = await destination();
    const first = await approvedWithdrawal('0.005', to.customer);
    const second = await approvedWithdrawal('0.005', to.customer);
    const paid = await node.rpc<string>('sendtoaddress', [to.node, '0.005'], WALLET);
    await settle(1);
    const a = await proposeCompletion(first, paid);
    const b = await proposeCompletion(second, paid);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    const ok = await approve(a.json().pending.id);
    expect(ok.statusCode, ok.body).toBe(200);
    const refused = await withoutChange(t, () => approve(b.json().pending.id));
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toMatch(/already claimed by payout/);
    expect(await payoutOf(second)).toMatchObject({ state: 'approved', tx_hash: null });
    await settle(1);
    expect((await payoutOf(first))?.state).toBe('completed');
  });
  it('approved at once for eight payouts, one typed hash settles exactly one; the rest are refused, never a 500', async () => {
    const to = await destination();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await approvedWithdrawal('0.002', to.customer));
    const paid = await node.rpc<string>('sendtoaddress', [to.node, '0.002'], WALLET);
    await settle(1);
    const pending: string[] = [];
    for (const id of ids) {
      const proposed = await proposeCompletion(id, paid);
      expect(proposed.statusCode, proposed.body).toBe(202);
      pending.push(proposed.json().pending.id);
    }
    const answers = await Promise.all(pending.map((change) => approve(change)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const { rows } = await t.services.pool.query<{ state: string }>(
      'SELECT state FROM payouts WHERE transaction_id = ANY($1::uuid[]) ORDER BY state',
      [ids],
    );
    expect(rows.map((r) => r.state)).toEqual([
      'approved',
      'approved',
      'approved',
      'approved',
      'approved',
      'approved',
      'approved',
      'confirming',
    ]);
  });
});
