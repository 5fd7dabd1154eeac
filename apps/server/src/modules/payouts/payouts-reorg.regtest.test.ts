import { bech32, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Transaction } from '@scure/btc-signer';
import { COMMANDS } from '@server/cli-commands';
import {
  call,
  createTestApp,
  mailsTo,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
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
import { payoutsRepository } from './payouts.repository';

/**
 * Reorganisations under completed Bitcoin payouts, on a real node (Litecoin Core regtest):
 * a block holding a completed payout replaced, the transaction mined again (completed once,
 * the ledger untouched, the watcher goes on and credits a later deposit); its input spent
 * by another transaction past the confirmations (flagged 'reversed-on-chain', staff mailed,
 * never approved or paid again); a payout whose ledger row cannot be settled (undone alone:
 * the block's other payout and a deposit land, the cursor moves on); and several payouts
 * typed with one hash, each claiming an output of its own.
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
let nextIndex = 0;

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

async function tick() {
  watcher.retryNow();
  const result = await watcher.tick();
  expect(result).toMatchObject({ state: 'ok' });
  return result;
}

async function settle(blocks: number) {
  for (let i = 0; i < blocks; i++) {
    await node.mine(1);
    await tick();
  }
}

/** A new chain of empty blocks after `invalidateblock`: what the payment was in is gone. */
async function mineEmpty(n: number) {
  for (let i = 0; i < n; i++) {
    await node.rpc('generateblock', [await node.rpc<string>('getnewaddress', [], WALLET), []]);
  }
}

const addressIndex = new Map<string, number>();

/** A deposit of `owner`'s to their derived address (credited after the confirmations). */
async function depositTo(amount: string, owner: SignedInUser): Promise<string> {
  let index = addressIndex.get(owner.userId);
  if (index === undefined) {
    index = nextIndex++;
    addressIndex.set(owner.userId, index);
    await t.services.pool.query(
      `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
       VALUES ($1, 'BTC', 'bitcoin', $2, 'bitcoin', $3)`,
      [
        owner.userId,
        bech32.encode('bcrt', [0, ...bech32.toWords(hex.decode(scriptAt(index).slice(4)))]),
        index,
      ],
    );
  }
  return node.rpc<string>('sendtoaddress', [await nodeAddressOf(scriptAt(index)), amount], WALLET);
}

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
  return id;
}

const build = () =>
  call(t, {
    method: 'POST',
    url: '/api/admin/payouts/batches',
    cookie: admin.cookie,
    body: { chain: 'bitcoin', stepUp: stepUpFor(admin) },
  });

async function builtAndSent(): Promise<{ batchId: string; txid: string }> {
  const built = await build();
  expect(built.statusCode, built.body).toBe(200);
  const { batch, file } = built.json();
  const sent = await call(t, {
    method: 'POST',
    url: `/api/admin/payouts/batches/${batch.id}/submit`,
    cookie: admin.cookie,
    body: { signed: sign(file.content), stepUp: stepUpFor(admin) },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const [txid] = sent.json().sent as string[];
  if (!txid) throw new Error('nothing was sent');
  return { batchId: batch.id, txid };
}

async function payout(id: string) {
  const { rows } = await t.services.pool.query<{
    state: string;
    tx_hash: string | null;
    output_index: number | null;
    completed_at: Date | null;
    returned_count: number;
  }>(
    'SELECT state, tx_hash, output_index, completed_at, returned_count FROM payouts WHERE transaction_id = $1',
    [id],
  );
  return rows[0];
}

/** A ledger row as stored, every column: a second change to it would show. */
async function ledgerRow(id: string) {
  const { rows } = await t.services.pool.query('SELECT * FROM transactions WHERE id = $1', [id]);
  return rows[0] as Record<string, unknown> & { status: string; transaction_hash: string };
}

async function btcBalance(user: SignedInUser): Promise<string> {
  return (await walletOf(t, user.userId, 'BTC'))?.balance ?? '0';
}

async function auditCount(action: string, targetId: string): Promise<number> {
  const { rows } = await t.services.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND target_id = $2',
    [action, targetId],
  );
  return rows[0]?.n ?? 0;
}

/** What `npm run cli -- chain-status` prints. */
async function chainStatusText(): Promise<string> {
  return (await COMMANDS['chain-status']?.run(t.services, [])) ?? '';
}

async function cursorHeight(): Promise<number> {
  const { rows } = await t.services.pool.query<{ height: string }>(
    "SELECT height FROM chain_cursors WHERE chain = 'bitcoin'",
  );
  return Number(rows[0]?.height);
}

/** The block that holds `txid` (the node's wallet knows the transactions it pays). */
async function blockOf(txid: string): Promise<string> {
  const tx = await node.rpc<{ blockhash?: string }>('gettransaction', [txid], WALLET);
  if (!tx.blockhash) throw new Error(`${txid} is not mined`);
  return tx.blockhash;
}

/**
 * Another transaction spending the batch's first input (paying the node's wallet), signed
 * with the operator's key as if paid from another wallet: its raw bytes.
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
    feeRate: 5,
    change: {
      index: 999,
      script: bitcoinP2wpkh(changeKey, 'regtest').script,
      publicKey: hex.encode(changeKey),
    },
    accountFingerprint: account.fingerprint,
    keyOrigin: null,
  });
  if (!spend) throw new Error('the other spend was not built');
  return checkSignedBitcoin(spend.psbt, sign(spend.psbt)).hex;
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
  admin = await spareStepUps(t, await verifiedAdmin(t), 100);
  await tick();
  // Alice's deposits: the outputs payouts spend (each batch takes what it needs).
  for (const amount of ['0.5', '0.5', '0.5', '0.5']) await depositTo(amount, alice);
  await settle(CONFIRMATIONS);
  expect(await btcBalance(alice)).toBe('2');
}, 120_000);

afterAll(async () => {
  await node?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

describe('a reorganisation under a completed payout', () => {
  it('completes it once when mined again, the ledger untouched, and the watcher goes on to credit a deposit', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.02', to.address);
    const { txid } = await builtAndSent();
    await settle(CONFIRMATIONS);
    expect((await payout(id))?.state).toBe('completed');
    const completed = await ledgerRow(id);
    expect(completed).toMatchObject({ status: 'completed', transaction_hash: txid });
    const balance = await btcBalance(alice);

    // The block holding it leaves the chain; a longer one of empty blocks replaces it.
    await node.rpc('invalidateblock', [await blockOf(txid)]);
    await mineEmpty(CONFIRMATIONS + 1);
    await tick();
    expect(await payout(id)).toMatchObject({ state: 'confirming', tx_hash: txid });
    expect((await payout(id))?.completed_at).not.toBeNull();
    expect(await ledgerRow(id)).toEqual(completed);

    // Back in the mempool, it is mined again: completed again, once, the ledger untouched.
    expect(await node.rpc<string[]>('getrawmempool')).toContain(txid);
    await settle(CONFIRMATIONS + 1);
    expect(await payout(id)).toMatchObject({ state: 'completed', tx_hash: txid });
    expect(await ledgerRow(id)).toEqual(completed);
    expect(await btcBalance(alice)).toBe(balance);

    // The watcher follows the node, and a deposit sent now is credited.
    const bob = await verifiedCustomer(t);
    await depositTo('0.2', bob);
    await settle(CONFIRMATIONS);
    expect(await cursorHeight()).toBe(await node.rpc<number>('getblockcount'));
    expect(await btcBalance(bob)).toBe('0.2');
    expect(await btcBalance(alice)).toBe(balance);
    const { rows } = await t.services.pool.query<{ status: string }>(
      `SELECT status FROM transactions WHERE user_id = $1`,
      [bob.userId],
    );
    expect(rows).toEqual([{ status: 'completed' }]);
  });
});

describe('a completed payout whose input another transaction spent', () => {
  it('is reversed on chain once that spend is confirmed: staff mailed, never approved or paid again', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.03', to.address);
    const { batchId, txid } = await builtAndSent();
    await settle(CONFIRMATIONS);
    const completed = await ledgerRow(id);
    expect(completed.status).toBe('completed');
    const balance = await btcBalance(alice);
    await t.services.outbox.deliver({ wait: 'all' });
    const mailsBefore = mailsTo(t, admin.email).length;

    // A reorganisation deeper than the confirmations: the replacing chain spends the
    // payout's input with another transaction, and the payout's can no longer confirm.
    const other = await otherSpendOf(batchId);
    await node.rpc('invalidateblock', [await blockOf(txid)]);
    await node.rpc('generateblock', [await node.rpc<string>('getnewaddress', [], WALLET), [other]]);
    await mineEmpty(CONFIRMATIONS + 1);
    expect(await node.rpc<string[]>('getrawmempool')).not.toContain(txid);
    await tick();
    await settle(2);

    expect(await payout(id)).toMatchObject({ state: 'reversed-on-chain', returned_count: 0 });
    expect(await ledgerRow(id)).toEqual(completed);
    expect(await btcBalance(alice)).toBe(balance);
    expect(await auditCount('payouts.reversed', id)).toBe(1);
    expect(await auditCount('payouts.returned', batchId)).toBe(0);
    await t.services.outbox.deliver({ wait: 'all' });
    const mails = mailsTo(t, admin.email).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`payout ${id}`);
    expect(mails[0]).toContain('Coffer will not pay it again by itself');
    const reversedRows = await payoutsRepository.reversedOnChain(t.services.pool, 'bitcoin');
    expect(reversedRows.map((r) => r.transaction_id)).toEqual([id]);
    expect(await chainStatusText()).toContain(
      `ALERT: 1 completed payout(s) reversed on chain (their transaction left the chain; not paid again until staff re-send or return them on the Payouts screen): ${id}`,
    );

    // More blocks change nothing; nothing waits to be paid again.
    await settle(3);
    expect((await payout(id))?.state).toBe('reversed-on-chain');
    expect(await auditCount('payouts.reversed', id)).toBe(1);
    const again = await build();
    expect(again.statusCode).toBe(409);
    expect(await node.rpc<string[]>('getrawmempool')).toEqual([]);
    await t.services.outbox.deliver({ wait: 'all' });
    expect(mailsTo(t, admin.email).slice(mailsBefore)).toHaveLength(1);
  });
});

describe('a payout whose settlement fails', () => {
  it('is undone alone: the block’s other payout and a deposit land, and the cursor moves on', async () => {
    const [x, y] = [await destination(), await destination()];
    const broken = await approvedWithdrawal('0.01', x.address);
    const fine = await approvedWithdrawal('0.011', y.address);
    const bob = await verifiedCustomer(t);
    // Alice's ledger row for `broken` refuses any change (as a bad row would).
    await t.services.pool.query(
      `CREATE OR REPLACE FUNCTION test_refuse_change() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'this row refuses to change (test)'; END $$`,
    );
    await t.services.pool.query(
      `CREATE TRIGGER test_refuse_change BEFORE UPDATE ON transactions FOR EACH ROW
         WHEN (OLD.id = '${broken}') EXECUTE FUNCTION test_refuse_change()`,
    );
    try {
      const { txid } = await builtAndSent();
      await depositTo('0.3', bob);
      const [included] = await node.mine(1);
      const block = await node.rpc<{ tx: string[] }>('getblock', [included]);
      expect(block.tx).toContain(txid);
      expect(block.tx).toHaveLength(3);
      await tick();
      await settle(CONFIRMATIONS - 1);

      expect((await payout(fine))?.state).toBe('completed');
      expect((await ledgerRow(fine)).status).toBe('completed');
      expect(await btcBalance(bob)).toBe('0.3');
      expect(await payout(broken)).toMatchObject({ state: 'confirming', completed_at: null });
      expect((await ledgerRow(broken)).status).toBe('pending');
      expect(await cursorHeight()).toBe(await node.rpc<number>('getblockcount'));
      const status = await chainStatusText();
      expect(status).toMatch(
        new RegExp(
          `ALERT: \\d+ payout problem\\(s\\) in the last hour \\(last at [^:]+:[^:]+:[^:]+: block \\d+: Settling payout ${broken} failed: this row refuses to change \\(test\\)\\)`,
        ),
      );
      // The watcher's own state is not failing: it went on.
      expect(status).toContain('bitcoin: OK: Following the node: up to date.');
    } finally {
      await t.services.pool.query('DROP TRIGGER test_refuse_change ON transactions');
    }
    // Once the row can change, the next block completes it.
    await settle(1);
    expect((await payout(broken))?.state).toBe('completed');
    expect((await ledgerRow(broken)).status).toBe('completed');
  });
});

describe('several payouts typed with one hash', () => {
  it('each claims an output of its own; one left without returns to approved naming the holder', async () => {
    const to = await destination();
    const ids = [
      await approvedWithdrawal('0.004', to.address),
      await approvedWithdrawal('0.004', to.address),
      await approvedWithdrawal('0.004', to.address),
    ];
    // Paid outside Coffer: one transaction, two outputs of 0.004 to the address (built by
    // hand: the node's RPC refuses one address twice).
    const [coin] = await node.rpc<Array<{ txid: string; vout: number; amount: number }>>(
      'listunspent',
      [1, 9999999, [], true, { minimumAmount: 1 }],
      WALLET,
    );
    if (!coin) throw new Error('the node wallet has no coin');
    const change = await destination();
    const paying = new Transaction();
    paying.addInput({ txid: coin.txid, index: coin.vout });
    paying.addOutput({ script: hex.decode(to.script), amount: 400_000n });
    paying.addOutput({
      script: hex.decode(change.script),
      amount: BigInt(Math.round(coin.amount * 1e8)) - 810_000n,
    });
    paying.addOutput({ script: hex.decode(to.script), amount: 400_000n });
    const signed = await node.rpc<{ hex: string; complete: boolean }>(
      'signrawtransactionwithwallet',
      [hex.encode(paying.unsignedTx)],
      WALLET,
    );
    expect(signed.complete).toBe(true);
    const hash = await node.rpc<string>('sendrawtransaction', [signed.hex]);
    // Staff typed the hash for all three (what a hand completion records before the chain
    // shows it: 'manual', no output yet).
    await t.services.pool.query(
      `UPDATE payouts SET state = 'manual', tx_hash = $2, typed_at = now()
        WHERE transaction_id = ANY($1::uuid[])`,
      [ids, hash],
    );
    await settle(CONFIRMATIONS);

    const rows = await Promise.all(ids.map((id) => payout(id)));
    const settled = rows.filter((r) => r?.state === 'completed');
    expect(settled).toHaveLength(2);
    expect(new Set(settled.map((r) => r?.output_index)).size).toBe(2);
    const left = ids.find((_id, k) => rows[k]?.state !== 'completed') as string;
    expect(await payout(left)).toMatchObject({
      state: 'approved',
      tx_hash: null,
      returned_count: 1,
    });
    const { rows: reason } = await t.services.pool.query<{ waiting_reason: string }>(
      'SELECT waiting_reason FROM payouts WHERE transaction_id = $1',
      [left],
    );
    expect(reason[0]?.waiting_reason).toMatch(/already claimed by payout [0-9a-f-]{36}/);
    expect((await ledgerRow(left)).status).toBe('pending');
    for (const id of ids.filter((i) => i !== left)) {
      expect(await ledgerRow(id)).toMatchObject({ status: 'completed', transaction_hash: hash });
    }
    // Rejected, so nothing is left for the next test to pay.
    const rejected = await call(t, {
      method: 'POST',
      url: `/api/admin/withdrawals/${left}/reject`,
      cookie: admin.cookie,
      body: { reason: 'paid twice by one output', stepUp: stepUpFor(admin) },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
  });

  it('a typed hash the chain never shows returns to approved after typed_hash_expiry_hours', async () => {
    const to = await destination();
    const id = await approvedWithdrawal('0.005', to.address);
    await t.services.pool.query(
      `UPDATE payouts SET state = 'manual', tx_hash = $2, typed_at = now() - interval '25 hours'
        WHERE transaction_id = $1`,
      [id, 'ab'.repeat(32)],
    );
    await settle(1);
    expect(await payout(id)).toMatchObject({ state: 'approved', tx_hash: null, returned_count: 1 });
    expect(await auditCount('payouts.typed_expired', id)).toBe(1);
    expect((await ledgerRow(id)).status).toBe('pending');
    expect(await chainStatusText()).toContain(
      `: Payout ${id}: The transaction staff gave (${'ab'.repeat(32)}) was not seen on the chain within 24 hours`,
    );
    await settle(1);
    expect(await auditCount('payouts.typed_expired', id)).toBe(1);
  });
});

describe('after all of the above', () => {
  it('every completed payout is an output on the chain, paying its address its amount, each output once', async () => {
    const { rows } = await t.services.pool.query<{
      transaction_id: string;
      tx_hash: string;
      block_hash: string;
      output_index: number;
      match_key: string;
      amount_minor: string;
      ledger_hash: string | null;
      crypto_amount: string;
      status: string;
    }>(
      `SELECT p.transaction_id, p.tx_hash, p.block_hash, p.output_index, p.match_key, p.amount_minor,
              t.transaction_hash AS ledger_hash, t.crypto_amount, t.status
         FROM payouts p JOIN transactions t ON t.id = p.transaction_id
        WHERE p.state = 'completed' ORDER BY p.approved_at`,
    );
    expect(rows.length).toBeGreaterThan(2);
    const outputs = new Set<string>();
    for (const p of rows) {
      const tx = await node.rpc<{
        confirmations?: number;
        vout: Array<{ n: number; value: number; scriptPubKey: { hex: string } }>;
      }>('getrawtransaction', [p.tx_hash, true, p.block_hash]);
      expect(tx.confirmations ?? 0).toBeGreaterThanOrEqual(CONFIRMATIONS);
      const out = tx.vout.find((o) => o.n === p.output_index);
      expect(out?.scriptPubKey.hex).toBe(p.match_key);
      // Satoshis from the node's decimal, exactly.
      expect(BigInt(Math.round((out?.value ?? 0) * 1e8))).toBe(BigInt(p.amount_minor));
      expect(BigInt(Math.round(Number(p.crypto_amount) * 1e8))).toBe(BigInt(p.amount_minor));
      expect(p.status).toBe('completed');
      expect(p.ledger_hash).toBe(p.tx_hash);
      outputs.add(`${p.tx_hash}:${p.output_index}`);
    }
    expect(outputs.size).toBe(rows.length);
  });
});
