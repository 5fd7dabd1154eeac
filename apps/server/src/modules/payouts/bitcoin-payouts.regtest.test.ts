import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type LitecoinNode, startLitecoinNode, WALLET } from '@server-test/litecoin-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitcoinP2wpkh } from '../chains';
import type {
  BtcPayout,
  BuildBitcoinBatchInput,
  BuiltBitcoinBatch,
  KeyOrigin,
  SpendableOutput,
} from './bitcoin-psbt';
import { buildBitcoinBatch, bumpBitcoinBatch } from './bitcoin-psbt-build';
import { checkSignedBitcoin } from './bitcoin-psbt-check';
import { signBitcoinPsbt } from './bitcoin-psbt-sign';

/**
 * Bitcoin payouts end to end on a real node: Litecoin Core in regtest speaks Bitcoin Core's
 * JSON-RPC and relays the same P2WPKH transactions. Coffer builds a batch from outputs on
 * the operator's derived addresses, a signer signs it (Coffer's offline CLI, or the node's
 * own descriptor wallet as a standard PSBT signer), Coffer checks the file and the node
 * accepts, replaces and refuses what it should.
 */

const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ACCOUNT_PATH = "m/84'/1'/0'";
// Test-network extended key versions (tprv/tpub), as the node's descriptors expect.
const master = HDKey.fromMasterSeed(mnemonicToSeedSync(ABANDON), {
  private: 0x04358394,
  public: 0x043587cf,
});
const account = master.derive(ACCOUNT_PATH);
const H = 0x80000000;
const KEY_ORIGIN: KeyOrigin = { fingerprint: master.fingerprint, path: [84 + H, 1 + H, H] };

let node: LitecoinNode;

beforeAll(async () => {
  // Bitcoin Core relays BIP-125 replacements by default; Litecoin Core needs asking.
  node = await startLitecoinNode(['-mempoolreplacement=1']);
  // Coinbase outputs mature after 100 blocks: 101 give the node's wallet coins to spend.
  await node.mine(101);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

const sats = (value: number): bigint => BigInt(Math.round(value * 1e8));

function keyAt(change: 0 | 1, index: number): { publicKey: string; script: string } {
  const publicKey = account.deriveChild(change).deriveChild(index).publicKey;
  if (!publicKey) throw new Error('derivation gave no public key');
  return { publicKey: hex.encode(publicKey), script: bitcoinP2wpkh(publicKey, 'regtest').script };
}

/** How the node writes the address of a script (its own rltc1… format). */
async function nodeAddressOf(script: string): Promise<string> {
  const decoded = await node.rpc<{ address?: string; addresses?: string[] }>('decodescript', [
    script,
  ]);
  const address = decoded.address ?? decoded.addresses?.[0];
  if (!address) throw new Error(`the node printed no address for ${script}`);
  return address;
}

type DecodedTx = {
  txid: string;
  vout: { n: number; value: number; scriptPubKey: { hex: string } }[];
};

/** Pays account/0/index from the node's wallet; the output Coffer can then spend. */
async function fund(index: number, amount: string): Promise<SpendableOutput> {
  const { publicKey, script } = keyAt(0, index);
  const txid = await node.rpc<string>(
    'sendtoaddress',
    [await nodeAddressOf(script), amount],
    WALLET,
  );
  const { hex: raw } = await node.rpc<{ hex: string }>('gettransaction', [txid], WALLET);
  const decoded = await node.rpc<DecodedTx>('decoderawtransaction', [raw]);
  const output = decoded.vout.find((o) => o.scriptPubKey.hex === script);
  if (!output) throw new Error(`no output of ${txid} pays account/0/${index}`);
  return { txid, vout: output.n, amount: sats(output.value), script, change: 0, index, publicKey };
}

/** A fresh address of the node's wallet, as the output script a payout pays. */
async function nodeDestination(id: string, amount: string): Promise<BtcPayout> {
  const address = await node.rpc<string>('getnewaddress', [], WALLET);
  const info = await node.rpc<{ scriptPubKey: string }>('getaddressinfo', [address], WALLET);
  return { id, script: info.scriptPubKey, amount: sats(Number(amount)) };
}

function changeAt(index: number): BuildBitcoinBatchInput['change'] {
  return { index, ...keyAt(1, index) };
}

function build(input: Omit<BuildBitcoinBatchInput, 'accountFingerprint'>): BuiltBitcoinBatch {
  const built = buildBitcoinBatch({ ...input, accountFingerprint: account.fingerprint });
  if (!built) throw new Error('no payout fitted');
  return built;
}

const sign = (psbt: string) => signBitcoinPsbt(psbt, ABANDON, { accountPath: ACCOUNT_PATH });

type TxOut = { value: number; confirmations: number; scriptPubKey: { hex: string } } | null;
const txOut = (txid: string, vout: number) => node.rpc<TxOut>('gettxout', [txid, vout, true]);

/** Every payout and the change are unspent outputs of `txid` with exactly the built amounts. */
async function expectPaid(txid: string, built: Pick<BuiltBitcoinBatch, 'payouts' | 'change'>) {
  for (const payout of built.payouts) {
    const output = await txOut(txid, payout.outputIndex);
    expect(output?.confirmations).toBe(1);
    expect(output?.scriptPubKey.hex).toBe(payout.script);
    expect(sats(output?.value ?? 0)).toBe(payout.amount);
  }
  if (built.change) {
    const output = await txOut(txid, built.change.outputIndex);
    expect(output?.scriptPubKey.hex).toBe(keyAt(1, built.change.index).script);
    expect(sats(output?.value ?? 0)).toBe(built.change.amount);
  }
}

/** The node wallet's confirmed receipts at the payouts' scripts, by script. */
async function walletReceived(txid: string): Promise<Map<string, bigint>> {
  const unspent = await node.rpc<{ txid: string; scriptPubKey: string; amount: number }[]>(
    'listunspent',
    [1, 9999999],
    WALLET,
  );
  return new Map(
    unspent.filter((u) => u.txid === txid).map((u) => [u.scriptPubKey, sats(u.amount)]),
  );
}

describe('Bitcoin payout batches on a Litecoin Core regtest node', () => {
  it("pays three payouts in one transaction signed by Coffer's offline signer", async () => {
    const spendable = [await fund(0, '0.3'), await fund(1, '0.2'), await fund(2, '0.1')];
    await node.mine(1);
    const payouts = [
      await nodeDestination('a1', '0.25'),
      await nodeDestination('a2', '0.15'),
      await nodeDestination('a3', '0.12'),
    ];
    const built = build({ spendable, payouts, feeRate: 10, change: changeAt(0), keyOrigin: null });
    expect(built.inputs).toHaveLength(3);
    expect(built.skipped).toEqual([]);

    const final = checkSignedBitcoin(built.psbt, sign(built.psbt), 'regtest');
    expect(await node.rpc<string>('sendrawtransaction', [final.hex])).toBe(built.txid);
    // The node's own accounting of the fee and size is Coffer's.
    const entry = await node.rpc<{ vsize: number; fees: { base: number } }>('getmempoolentry', [
      built.txid,
    ]);
    expect(sats(entry.fees.base)).toBe(built.fee);
    expect(entry.vsize).toBe(final.vsize);

    await node.mine(1);
    await expectPaid(built.txid, built);
    const received = await walletReceived(built.txid);
    for (const payout of payouts) expect(received.get(payout.script)).toBe(payout.amount);
    expect(built.change?.index).toBe(0);
    expect(built.change?.amount).toBe(sats(0.6) - sats(0.52) - built.fee);
  });

  it("is signed by the node's own wallet from the account's descriptors (walletprocesspsbt), as by any standard signer", async () => {
    const spendable = [await fund(3, '0.2'), await fund(4, '0.2'), await fund(5, '0.2')];
    await node.mine(1);
    const payouts = [
      await nodeDestination('b1', '0.1'),
      await nodeDestination('b2', '0.2'),
      await nodeDestination('b3', '0.05'),
    ];
    const built = build({
      spendable,
      payouts,
      feeRate: 10,
      change: changeAt(1),
      keyOrigin: KEY_ORIGIN,
    });

    // A blank wallet holding the test master key's BIP-84 account, given as the output
    // descriptors wpkh(tprv…/84h/1h/0h/0/*) and /1/*: it signs any input whose script its
    // descriptors derive, whatever the node calls the address. This litecoind is built
    // without SQLite, so it has no descriptor wallets (createwallet with descriptors=true
    // is refused); a legacy wallet takes the very same descriptors through importmulti,
    // private keys included, and walletprocesspsbt signs with them alike.
    await node.rpc('createwallet', ['signer', false, true, '', false, false]);
    const tprv = master.privateExtendedKey;
    const requests = [];
    for (const chain of [0, 1]) {
      const { checksum } = await node.rpc<{ checksum: string }>('getdescriptorinfo', [
        `wpkh(${tprv}/84h/1h/0h/${chain}/*)`,
      ]);
      requests.push({
        desc: `wpkh(${tprv}/84h/1h/0h/${chain}/*)#${checksum}`,
        timestamp: 'now',
        range: [0, 20],
      });
    }
    const imported = await node.rpc<{ success: boolean }[]>(
      'importmulti',
      [requests, { rescan: false }],
      'signer',
    );
    expect(imported).toEqual([{ success: true }, { success: true }]);

    const processed = await node.rpc<{ psbt: string; complete: boolean }>(
      'walletprocesspsbt',
      // psbt, sign, sighash type, bip32derivs (this version finalizes what it completes).
      [built.psbt, true, 'ALL', true],
      'signer',
    );
    expect(processed.complete).toBe(true);
    const final = checkSignedBitcoin(built.psbt, processed.psbt, 'regtest');
    expect(final.txid).toBe(built.txid);
    expect(await node.rpc<string>('sendrawtransaction', [final.hex])).toBe(built.txid);
    await node.mine(1);
    await expectPaid(built.txid, built);
  });

  it('replaces a broadcast batch with a fee bump (BIP-125) that confirms in its place', async () => {
    const spendable = [await fund(6, '0.1'), await fund(7, '0.1')];
    await node.mine(1);
    const payouts = [
      await nodeDestination('c1', '0.05'),
      await nodeDestination('c2', '0.07'),
      await nodeDestination('c3', '0.03'),
    ];
    const built = build({ spendable, payouts, feeRate: 10, change: changeAt(2), keyOrigin: null });
    const original = checkSignedBitcoin(built.psbt, sign(built.psbt), 'regtest');
    await node.rpc('sendrawtransaction', [original.hex]);
    expect(await node.rpc<string[]>('getrawmempool')).toContain(built.txid);

    const bumped = bumpBitcoinBatch(built, 30, built.change?.outputIndex ?? null);
    const replacement = checkSignedBitcoin(bumped.psbt, sign(bumped.psbt), 'regtest');
    expect(replacement.txid).toBe(bumped.txid);
    expect(await node.rpc<string>('sendrawtransaction', [replacement.hex])).toBe(bumped.txid);
    const mempool = await node.rpc<string[]>('getrawmempool');
    expect(mempool).toContain(bumped.txid);
    expect(mempool).not.toContain(built.txid);

    await node.mine(1);
    expect(await node.rpc<string[]>('getrawmempool')).toEqual([]);
    const change = built.change ? { ...built.change, amount: bumped.changeAmount } : null;
    await expectPaid(bumped.txid, { payouts: built.payouts, change });
    expect(bumped.changeAmount).toBe(sats(0.2) - sats(0.15) - bumped.fee);
    // The original's outputs never came to exist.
    expect(await txOut(built.txid, 0)).toBeNull();
    // Nor can it come back: its inputs are spent.
    const [verdict] = await node.rpc<{ allowed: boolean; 'reject-reason'?: string }[]>(
      'testmempoolaccept',
      [[original.hex]],
    );
    expect(verdict?.allowed).toBe(false);
  });

  it('is refused by the node once one of its inputs is spent elsewhere', async () => {
    const spendable = [await fund(8, '0.1'), await fund(9, '0.1')];
    await node.mine(1);
    const payouts = [
      await nodeDestination('d1', '0.08'),
      await nodeDestination('d2', '0.06'),
      await nodeDestination('d3', '0.04'),
    ];
    const built = build({ spendable, payouts, feeRate: 10, change: changeAt(3), keyOrigin: null });
    const batch = checkSignedBitcoin(built.psbt, sign(built.psbt), 'regtest');
    const [before] = await node.rpc<{ allowed: boolean }[]>('testmempoolaccept', [[batch.hex]]);
    expect(before?.allowed).toBe(true);

    // Another transaction spends the batch's first input and confirms first.
    const [first] = spendable;
    if (!first) throw new Error('no spendable output');
    const other = build({
      spendable: [first],
      payouts: [await nodeDestination('elsewhere', '0.05')],
      feeRate: 10,
      change: changeAt(4),
      keyOrigin: null,
    });
    const elsewhere = checkSignedBitcoin(other.psbt, sign(other.psbt), 'regtest');
    await node.rpc('sendrawtransaction', [elsewhere.hex]);
    await node.mine(1);
    expect((await txOut(other.txid, 0))?.confirmations).toBe(1);

    const [after] = await node.rpc<{ allowed: boolean; 'reject-reason'?: string }[]>(
      'testmempoolaccept',
      [[batch.hex]],
    );
    expect(after?.allowed).toBe(false);
    expect(after?.['reject-reason']).toMatch(/missing|spent/);
    await expect(node.rpc('sendrawtransaction', [batch.hex])).rejects.toThrow(/missing|spent/i);
  });
});
