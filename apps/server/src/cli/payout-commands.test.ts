import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { base64, bech32, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { Transaction } from '@scure/btc-signer';
import {
  call,
  createTestApp,
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
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliError, COMMANDS } from '../cli-commands';
import { bitcoinP2wpkh, type ChainWatcher } from '../modules/chains';

/**
 * The operator's payout commands on a real node (Litecoin Core in regtest): files are named
 * relative to where the command was run (INIT_CWD, which npm sets), the unsigned file is
 * written before the batch is kept, `payouts-file` writes a batch's file again, and a
 * refused file names addresses as the network writes them.
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
let admin: SignedInUser;
let watcher: ChainWatcher;
/** Where the operator "ran" the command: INIT_CWD while a test runs. */
let here: string;
/** The first test's payout: its destination. */
let paidTo: { address: string; script: string };
const savedInitCwd = process.env.INIT_CWD;

const bcrt = (script: string) =>
  bech32.encode('bcrt', [0, ...bech32.toWords(hex.decode(script.slice(4)))]);

function run(name: string, args: string[]): Promise<string> {
  const command = COMMANDS[name];
  if (!command) throw new Error(`no ${name} command`);
  return command.run(t.services, args);
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

/** A fresh address of the node's wallet, as a customer writes it. */
async function destination(): Promise<{ address: string; script: string }> {
  const address = await node.rpc<string>('getnewaddress', [], WALLET);
  const { scriptPubKey } = await node.rpc<{ scriptPubKey: string }>(
    'getaddressinfo',
    [address],
    WALLET,
  );
  return { address: bcrt(scriptPubKey), script: scriptPubKey };
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

async function payoutStates(ids: string[]): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ state: string }>(
    'SELECT state FROM payouts WHERE transaction_id = ANY($1) ORDER BY transaction_id',
    [ids],
  );
  return rows.map((r) => r.state);
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
  await setSetting(t, 'confirmations_btc', '1');
  await setSetting(t, 'max_daily_withdrawal', '100000000');
  alice = await spareStepUps(t, await verifiedCustomer(t));
  admin = await spareStepUps(t, await verifiedAdmin(t));
  expect((await watcher.tick()).state).toBe('ok');
  // Alice's deposit to account/0/0: the output the batches spend.
  const key = account.deriveChild(0).deriveChild(0).publicKey;
  if (!key) throw new Error('no key');
  const script = bitcoinP2wpkh(key, 'regtest').script;
  await t.services.pool.query(
    `INSERT INTO deposit_addresses (user_id, asset_symbol, network, address, chain, derivation_index)
     VALUES ($1, 'BTC', 'bitcoin', $2, 'bitcoin', 0)`,
    [alice.userId, bcrt(script)],
  );
  // The node writes the same script in Litecoin's own form (rltc1…).
  const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
    script,
  ]);
  await node.rpc('sendtoaddress', [decoded.address ?? decoded.addresses?.[0], '0.5'], WALLET);
  await node.mine(1);
  expect((await watcher.tick()).state).toBe('ok');
}, 120_000);

afterAll(async () => {
  if (savedInitCwd === undefined) delete process.env.INIT_CWD;
  else process.env.INIT_CWD = savedInitCwd;
  await node?.stop();
  await t?.close();
});

afterEach(async () => {
  await expectReconciled(t);
});

describe('payouts-build, payouts-file and payouts-submit', () => {
  it('writes the file where the operator ran the command, and keeps no batch when it cannot', async () => {
    here = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-operator-'));
    process.env.INIT_CWD = here;
    const to = await destination();
    paidTo = to;
    const id = await approvedWithdrawal('0.01', to.address);

    // A directory that does not exist: nothing is built, the payout stays approved.
    const failed = await withoutChange(t, () =>
      rejection(run('payouts-build', ['--chain', 'btc', '--out', 'files/batch.psbt'])),
    );
    expect(failed).toBeInstanceOf(CliError);
    expect((failed as Error).message).toBe(
      `Cannot write the unsigned file to ${here}/files/batch.psbt: no such file or directory. Nothing was built: the payouts stay approved.`,
    );
    expect(await payoutStates([id])).toEqual(['approved']);
    const { rows: batches } = await t.services.pool.query('SELECT id FROM payout_batches');
    expect(batches).toEqual([]);

    // Relative to INIT_CWD, not to the process's directory (npm runs it from the repository).
    fs.mkdirSync(path.join(here, 'files'));
    const said = await run('payouts-build', ['--chain', 'btc', '--out', 'files/batch.psbt']);
    const written = path.join(here, 'files', 'batch.psbt');
    expect(said).toMatch(/^Built batch [0-9a-f-]{36} \(bitcoin\): 1 payout\(s\), fee /);
    expect(said).toContain(`  0.01 BTC to ${to.address}`);
    expect(said.split('\n').at(-1)).toBe(`Unsigned file: ${written}`);
    expect(fs.existsSync(path.join(process.cwd(), 'files', 'batch.psbt'))).toBe(false);
    const batchId = /^Built batch (\S+) /.exec(said)?.[1] ?? '';
    expect(await payoutStates([id])).toEqual(['in-batch']);

    // The same bytes again, as the Payouts screen's download gives them.
    const again = await run('payouts-file', ['--batch', batchId, '--out', 'again.psbt']);
    expect(again).toBe(`Unsigned file of batch ${batchId}: ${here}/again.psbt`);
    const route = await call(t, {
      method: 'POST',
      url: `/api/admin/payouts/batches/${batchId}/file`,
      cookie: admin.cookie,
      body: { stepUp: stepUpFor(admin) },
    });
    expect(route.statusCode, route.body).toBe(200);
    const built = fs.readFileSync(written, 'utf8');
    expect(fs.readFileSync(path.join(here, 'again.psbt'), 'utf8')).toBe(route.json().content);
    expect(built).toBe(route.json().content);
    const { rows: audit } = await t.services.pool.query(
      "SELECT actor_id, target_id FROM audit_log WHERE action = 'payouts.download' ORDER BY id",
    );
    expect(audit).toEqual([
      { actor_id: null, target_id: batchId },
      { actor_id: admin.userId, target_id: batchId },
    ]);

    // Refusals that change nothing: no such batch, a place that cannot take the file.
    for (const [args, message] of [
      [
        ['--batch', '00000000-0000-4000-8000-000000000000', '--out', 'x.psbt'],
        'Payout batch not found.',
      ],
      [
        ['--batch', batchId, '--out', 'missing/x.psbt'],
        `Cannot write the unsigned file to ${here}/missing/x.psbt: no such file or directory.`,
      ],
      [
        ['--out', 'x.psbt'],
        'Name the batch: --batch ID (payouts-build and the Payouts screen show it)',
      ],
    ] as const) {
      const err = await withoutChange(t, () => rejection(run('payouts-file', [...args])));
      expect(err).toBeInstanceOf(CliError);
      expect((err as Error).message).toBe(message);
    }
  });

  it('a file that pays another address is refused naming both addresses in bcrt1 form', async () => {
    const batchId = (
      await t.services.pool.query<{ id: string }>(
        "SELECT id FROM payout_batches WHERE state = 'built'",
      )
    ).rows[0]?.id;
    if (!batchId) throw new Error('no built batch');
    const tx = Transaction.fromPSBT(
      base64.decode(fs.readFileSync(path.join(here, 'files', 'batch.psbt'), 'utf8')),
    );
    const built = paidTo.address;
    const index = Array.from({ length: tx.outputsLength }, (_, i) => i).find(
      (i) => bcrt(hex.encode(tx.getOutput(i).script ?? new Uint8Array())) === built,
    );
    if (index === undefined) throw new Error('the batch does not pay the payout');
    const thief = await destination();
    tx.updateOutput(index, { script: hex.decode(thief.script) });
    fs.writeFileSync(path.join(here, 'tampered.psbt'), base64.encode(tx.toPSBT()));

    // Matched by its transaction, the file is no batch's; named, its differences are listed.
    const unmatched = await withoutChange(t, () =>
      rejection(run('payouts-submit', ['--chain', 'btc', '--in', 'tampered.psbt'])),
    );
    expect(unmatched).toBeInstanceOf(CliError);
    expect((unmatched as Error).message).toBe(
      'No batch matches this file. Name the batch it was built for (--batch ID) to see how it differs.',
    );
    const err = await withoutChange(t, () =>
      rejection(
        run('payouts-submit', ['--chain', 'btc', '--in', 'tampered.psbt', '--batch', batchId]),
      ),
    );
    expect(err).toBeInstanceOf(CliError);
    const message = (err as Error).message;
    expect(message).toContain(
      `output ${index} pays ${thief.address} 0.01 BTC where Coffer built ${built} 0.01 BTC`,
    );
    expect(message).not.toMatch(/script|0014/);
    expect(await node.rpc<string[]>('getrawmempool')).toEqual([]);
  });
});
