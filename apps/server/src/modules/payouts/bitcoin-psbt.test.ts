import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { RawTx, Transaction } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { bitcoinP2wpkh, bitcoinScriptOf, parseKeyOrigin } from '../chains';
import type { BuildBitcoinBatchInput, BuiltBitcoinBatch, SpendableOutput } from './bitcoin-psbt';
import { buildBitcoinBatch, bumpBitcoinBatch } from './bitcoin-psbt-build';
import { checkSignedBitcoin } from './bitcoin-psbt-check';
import { signBitcoinPsbt } from './bitcoin-psbt-sign';
import { PayoutFileError } from './payout-file-error';

// BIP-84's test mnemonic; only tests and the offline signer ever hold a private key.
const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const OTHER = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const ACCOUNT_PATH = "m/84'/1'/0'";
const master = HDKey.fromMasterSeed(mnemonicToSeedSync(ABANDON));
const account = master.derive(ACCOUNT_PATH);
const H = 0x80000000;

function keyAt(change: 0 | 1, index: number, root: HDKey = account): HDKey {
  return root.deriveChild(change).deriveChild(index);
}

function publicKeyAt(change: 0 | 1, index: number): Uint8Array {
  const key = keyAt(change, index).publicKey;
  if (!key) throw new Error('no public key');
  return key;
}

function spendable(index: number, amount: bigint, change: 0 | 1 = 0): SpendableOutput {
  const publicKey = publicKeyAt(change, index);
  return {
    txid: `${(index + 1 + change * 100).toString(16).padStart(2, '0')}`.repeat(32),
    vout: index % 3,
    amount,
    script: bitcoinP2wpkh(publicKey, 'regtest').script,
    change,
    index,
    publicKey: hex.encode(publicKey),
  };
}

/** A destination outside the operator's wallet: P2WPKH of another mnemonic's key. */
const otherRoot = HDKey.fromMasterSeed(mnemonicToSeedSync(OTHER)).derive(ACCOUNT_PATH);
function destination(i: number): string {
  const key = keyAt(0, i, otherRoot).publicKey;
  if (!key) throw new Error('no public key');
  return bitcoinP2wpkh(key, 'regtest').script;
}

const changeKey = publicKeyAt(1, 4);
const CHANGE = {
  index: 4,
  script: bitcoinP2wpkh(changeKey, 'regtest').script,
  publicKey: hex.encode(changeKey),
};

function input(overrides: Partial<BuildBitcoinBatchInput> = {}): BuildBitcoinBatchInput {
  return {
    spendable: [spendable(0, 100_000n), spendable(1, 100_000n)],
    payouts: [
      { id: 'p1', script: destination(0), amount: 50_000n },
      { id: 'p2', script: destination(1), amount: 30_000n },
    ],
    feeRate: 2,
    change: CHANGE,
    accountFingerprint: account.fingerprint,
    keyOrigin: null,
    ...overrides,
  };
}

function build(overrides: Partial<BuildBitcoinBatchInput> = {}): BuiltBitcoinBatch {
  const built = buildBitcoinBatch(input(overrides));
  if (!built) throw new Error('nothing was built');
  return built;
}

const sign = (psbt: string, mnemonic = ABANDON) =>
  signBitcoinPsbt(psbt, mnemonic, { accountPath: ACCOUNT_PATH });

function parse(psbt: string): Transaction {
  return Transaction.fromPSBT(base64.decode(psbt), { allowUnknownOutputs: true });
}

/** What a modified file says, as the list of differences Coffer refuses it with. */
function refusal(built: BuiltBitcoinBatch, signed: string): string[] {
  try {
    checkSignedBitcoin(built.psbt, signed, 'regtest');
  } catch (error) {
    if (error instanceof PayoutFileError) return [...error.differences];
    throw error;
  }
  throw new Error('the file was accepted');
}

/** The built PSBT changed by `edit` and then validly signed: a signer's tampering. */
function tamperedAndSigned(built: BuiltBitcoinBatch, edit: (tx: Transaction) => void): string {
  const tx = parse(built.psbt);
  edit(tx);
  return sign(base64.encode(tx.toPSBT(0)));
}

describe('buildBitcoinBatch', () => {
  it('pays the payouts from the oldest output, with change on the internal chain', () => {
    const built = build();
    // 1 input, 3 P2WPKH outputs: 10.5 + 68 + 3 × 31 = 171.5, rounded up; 2 sat/vB.
    expect(built.vsize).toBe(172);
    expect(built.fee).toBe(344n);
    expect(built.feeRate).toBe(2);
    expect(built.inputs).toEqual([{ txid: '01'.repeat(32), vout: 0, amount: 100_000n }]);
    expect(built.payouts).toEqual([
      { id: 'p1', outputIndex: 0, script: destination(0), amount: 50_000n },
      { id: 'p2', outputIndex: 1, script: destination(1), amount: 30_000n },
    ]);
    expect(built.change).toEqual({ outputIndex: 2, amount: 100_000n - 80_000n - 344n, index: 4 });
    expect(built.skipped).toEqual([]);

    const tx = parse(built.psbt);
    expect(tx.version).toBe(2);
    expect(tx.lockTime).toBe(0);
    expect(tx.id).toBe(built.txid);
    expect(tx.getInput(0).sequence).toBe(0xfffffffd);
    expect(tx.getInput(0).witnessUtxo).toEqual({
      script: hex.decode(spendable(0, 0n).script),
      amount: 100_000n,
    });
    expect(hex.encode(tx.getOutput(2).script ?? new Uint8Array())).toBe(CHANGE.script);
    expect(tx.getOutput(2).amount).toBe(built.change?.amount);
    // The fee is what the inputs give and the outputs do not take.
    expect(tx.fee).toBe(built.fee);
  });

  it('takes payouts oldest first while the outputs cover them; a later smaller one may still fit', () => {
    const built = build({
      spendable: [spendable(0, 60_000n), spendable(1, 50_000n, 1), spendable(2, 5_000n)],
      payouts: [
        { id: 'first', script: destination(0), amount: 70_000n },
        { id: 'too-big', script: destination(1), amount: 100_000n },
        { id: 'small', script: destination(2), amount: 20_000n },
        { id: 'too-big-now', script: destination(3), amount: 30_000n },
      ],
      feeRate: 1,
    });
    expect(built.payouts.map((p) => p.id)).toEqual(['first', 'small']);
    expect(built.skipped).toEqual([
      { id: 'too-big', reason: 'funds' },
      { id: 'too-big-now', reason: 'funds' },
    ]);
    // 60 000 + 50 000 cover 90 000 and the fee: the third output is not needed.
    expect(built.inputs.map((i) => i.amount)).toEqual([60_000n, 50_000n]);
    // 2 inputs, 3 outputs: 10.5 + 136 + 93 = 239.5 vB.
    expect(built.fee).toBe(240n);
    expect(built.change?.amount).toBe(110_000n - 90_000n - 240n);
  });

  it('is null when no payout fits, and when there is none', () => {
    expect(
      buildBitcoinBatch(
        input({ payouts: [{ id: 'big', script: destination(0), amount: 200_000n }] }),
      ),
    ).toBeNull();
    // Exactly the outputs' total leaves nothing for the fee.
    expect(
      buildBitcoinBatch(
        input({ payouts: [{ id: 'all', script: destination(0), amount: 200_000n - 100n }] }),
      ),
    ).toBeNull();
    expect(buildBitcoinBatch(input({ payouts: [] }))).toBeNull();
    expect(buildBitcoinBatch(input({ spendable: [] }))).toBeNull();
  });

  it('leaves change below dust to the fee instead of making an output of it', () => {
    // With change: 1 input, 2 outputs = 140.5 → 141 vB; 100 000 − 99 500 − 141 = 359 < 546.
    const built = build({
      spendable: [spendable(0, 100_000n)],
      payouts: [{ id: 'p', script: destination(0), amount: 99_500n }],
      feeRate: 1,
    });
    expect(built.change).toBeNull();
    expect(built.vsize).toBe(110);
    expect(built.fee).toBe(500n);
    expect(parse(built.psbt).outputsLength).toBe(1);

    // 546 left over is kept as change.
    const kept = build({
      spendable: [spendable(0, 100_000n)],
      payouts: [{ id: 'p', script: destination(0), amount: 100_000n - 141n - 546n }],
      feeRate: 1,
    });
    expect(kept.change?.amount).toBe(546n);
    expect(kept.fee).toBe(141n);
  });

  it('sizes other output types by their script and rounds the fee up', () => {
    const taproot = bitcoinScriptOf(
      'bcrt1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqc8gma6',
      'regtest',
    );
    const legacy = bitcoinScriptOf('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'regtest');
    if (!taproot || !legacy) throw new Error('the test addresses do not decode');
    const built = build({
      payouts: [
        { id: 'tr', script: taproot, amount: 10_000n },
        { id: 'pkh', script: legacy, amount: 10_000n },
      ],
      feeRate: 1.5,
    });
    // 10.5 + 68 + 43 (P2TR) + 34 (P2PKH) + 31 (change) = 186.5 → 187 vB; 1.5 × 187 = 280.5 → 281.
    expect(built.vsize).toBe(187);
    expect(built.fee).toBe(281n);
    expect(parse(built.psbt).fee).toBe(281n);
  });

  it('accepts a bigint fee rate', () => {
    expect(build({ feeRate: 2n }).fee).toBe(344n);
  });

  it('carries each key and its derivation on every input and on the change output', () => {
    const built = build({
      spendable: [spendable(3, 60_000n), spendable(7, 60_000n, 1)],
      payouts: [{ id: 'p', script: destination(0), amount: 100_000n }],
    });
    const tx = parse(built.psbt);
    expect(tx.getInput(0).bip32Derivation).toEqual([
      [publicKeyAt(0, 3), { fingerprint: account.fingerprint, path: [0, 3] }],
    ]);
    expect(tx.getInput(1).bip32Derivation).toEqual([
      [publicKeyAt(1, 7), { fingerprint: account.fingerprint, path: [1, 7] }],
    ]);
    expect(tx.getOutput(built.change?.outputIndex ?? -1).bip32Derivation).toEqual([
      [changeKey, { fingerprint: account.fingerprint, path: [1, 4] }],
    ]);
    // Payout outputs are not the operator's: nothing is said about them.
    expect(tx.getOutput(0).bip32Derivation).toBeUndefined();
  });

  it("with a key origin, writes the master's fingerprint and full paths", () => {
    const origin = parseKeyOrigin(`${master.fingerprint.toString(16).padStart(8, '0')}/84'/1'/0'`);
    const built = build({
      spendable: [spendable(3, 60_000n), spendable(7, 60_000n, 1)],
      payouts: [{ id: 'p', script: destination(0), amount: 100_000n }],
      keyOrigin: origin,
    });
    const tx = parse(built.psbt);
    expect(tx.getInput(0).bip32Derivation).toEqual([
      [publicKeyAt(0, 3), { fingerprint: master.fingerprint, path: [84 + H, 1 + H, H, 0, 3] }],
    ]);
    expect(tx.getInput(1).bip32Derivation).toEqual([
      [publicKeyAt(1, 7), { fingerprint: master.fingerprint, path: [84 + H, 1 + H, H, 1, 7] }],
    ]);
    expect(tx.getOutput(built.change?.outputIndex ?? -1).bip32Derivation).toEqual([
      [changeKey, { fingerprint: master.fingerprint, path: [84 + H, 1 + H, H, 1, 4] }],
    ]);
    // A signer following the full path from the master signs it.
    expect(checkSignedBitcoin(built.psbt, sign(built.psbt)).txid).toBe(built.txid);
  });

  it('refuses an output that is not P2WPKH of its stated key', () => {
    const wrong = { ...spendable(0, 100_000n), publicKey: hex.encode(publicKeyAt(0, 9)) };
    expect(() => buildBitcoinBatch(input({ spendable: [wrong] }))).toThrow(
      'is not P2WPKH of its derived key',
    );
    expect(() => buildBitcoinBatch(input({ feeRate: 0 }))).toThrow('positive number');
  });
});

describe('parseKeyOrigin', () => {
  it("reads a fingerprint and a path hardened with ' or h", () => {
    const expected = { fingerprint: 0xd34db33f, path: [84 + H, 1 + H, H] };
    expect(parseKeyOrigin("d34db33f/84'/1'/0'")).toEqual(expected);
    expect(parseKeyOrigin('D34DB33F/84h/1h/0h')).toEqual(expected);
    expect(parseKeyOrigin("[d34db33f/84'/1'/0']")).toEqual(expected);
    expect(parseKeyOrigin(" d34db33f/m/84'/1'/0' ")).toEqual(expected);
    expect(parseKeyOrigin("00000001/84'/0'/5")).toEqual({ fingerprint: 1, path: [84 + H, H, 5] });
  });

  it('refuses what is not a key origin, saying why', () => {
    expect(() => parseKeyOrigin("d34db33/84'/1'/0'")).toThrow('8 hex digits');
    expect(() => parseKeyOrigin("xpub/84'/1'/0'")).toThrow('8 hex digits');
    expect(() => parseKeyOrigin("d34db33f/84'/x/0'")).toThrow('has the step "x"');
    expect(() => parseKeyOrigin("d34db33f/84'/2147483648/0'")).toThrow('below 2^31');
    expect(() => parseKeyOrigin("d34db33f/84'/1'")).toThrow('2 path steps');
    expect(() => parseKeyOrigin('d34db33f')).toThrow('0 path steps');
  });
});

describe('signBitcoinPsbt and checkSignedBitcoin', () => {
  const built = build({ spendable: [spendable(0, 50_000n), spendable(2, 60_000n, 1)] });

  it('accepts the batch signed and finalized, and returns the transaction to broadcast', () => {
    expect(built.inputs).toHaveLength(2);
    const result = checkSignedBitcoin(built.psbt, sign(built.psbt), 'regtest');
    expect(result.txid).toBe(built.txid);
    expect(result.fee).toBe(built.fee);
    // The estimate assumes 72-byte signatures: the real size is at most that.
    expect(result.vsize).toBeLessThanOrEqual(built.vsize);
    expect(result.vsize).toBeGreaterThanOrEqual(built.vsize - 2);
    const tx = Transaction.fromRaw(hex.decode(result.hex));
    expect(tx.id).toBe(built.txid);
    expect(tx.outputsLength).toBe(3);
    expect(tx.getOutput(0).amount).toBe(50_000n);
  });

  it('accepts the same transaction as raw hex, and a signed PSBT not yet finalized', () => {
    const final = checkSignedBitcoin(built.psbt, sign(built.psbt));
    expect(checkSignedBitcoin(built.psbt, final.hex)).toEqual(final);

    const tx = parse(built.psbt);
    tx.signIdx(keyAt(0, 0).privateKey ?? new Uint8Array(), 0);
    tx.signIdx(keyAt(1, 2).privateKey ?? new Uint8Array(), 1);
    expect(tx.getInput(0).finalScriptWitness).toBeUndefined();
    expect(tx.getInput(0).partialSig).toHaveLength(1);
    expect(checkSignedBitcoin(built.psbt, base64.encode(tx.toPSBT(0)))).toEqual(final);
  });

  it('refuses a payout to another address', () => {
    const signed = tamperedAndSigned(built, (tx) =>
      tx.updateOutput(0, { script: hex.decode(destination(7)) }),
    );
    const other = keyAt(0, 7, otherRoot).publicKey ?? new Uint8Array();
    const original = keyAt(0, 0, otherRoot).publicKey ?? new Uint8Array();
    expect(refusal(built, signed)).toEqual([
      `output 0 pays ${bitcoinP2wpkh(other, 'regtest').address} 0.0005 BTC where Coffer built ${bitcoinP2wpkh(original, 'regtest').address} 0.0005 BTC`,
    ]);
  });

  it('refuses another amount', () => {
    // 1 000 sat more to a payout, taken from the change so the transaction still balances.
    const change = built.change?.amount ?? 0n;
    const signed = tamperedAndSigned(built, (tx) => {
      tx.updateOutput(1, { amount: 31_000n });
      tx.updateOutput(2, { amount: change - 1_000n });
    });
    const payee = bitcoinP2wpkh(keyAt(0, 1, otherRoot).publicKey ?? new Uint8Array(), 'regtest');
    const own = bitcoinP2wpkh(changeKey, 'regtest');
    expect(refusal(built, signed)).toEqual([
      `output 1 pays ${payee.address} 0.00031 BTC where Coffer built 0.0003 BTC`,
      `output 2 pays ${own.address} ${Number(change - 1_000n) / 1e8} BTC where Coffer built ${Number(change) / 1e8} BTC`,
    ]);
  });

  it('refuses an extra output and a removed one', () => {
    const change = built.change?.amount ?? 0n;
    const extra = tamperedAndSigned(built, (tx) => {
      tx.updateOutput(2, { amount: change - 1_000n });
      tx.addOutput({ script: hex.decode(destination(9)), amount: 1_000n });
    });
    expect(refusal(built, extra)).toEqual([
      expect.stringMatching(/^output 2 pays bcrt1q\w+ [\d.]+ BTC where Coffer built [\d.]+ BTC$/),
      expect.stringMatching(/^an extra output 3 \(bcrt1q\w+, 0\.00001 BTC\)$/),
    ]);

    // A transaction without the change output: the same inputs, the change left to the fee.
    const unsigned = parse(built.psbt);
    const removed = new Transaction({ allowUnknownOutputs: true });
    for (let i = 0; i < unsigned.inputsLength; i++) removed.addInput(unsigned.getInput(i));
    removed.addOutput(unsigned.getOutput(0));
    removed.addOutput(unsigned.getOutput(1));
    expect(refusal(built, sign(base64.encode(removed.toPSBT(0))))).toEqual([
      `output 2 (${bitcoinP2wpkh(changeKey, 'regtest').address}, ${Number(built.change?.amount) / 1e8} BTC) is missing`,
    ]);
  });

  it('refuses a changed sequence, version or locktime', () => {
    const sequence = tamperedAndSigned(built, (tx) => tx.updateInput(1, { sequence: 0xffffffff }));
    expect(refusal(built, sequence)).toEqual([
      "input 1's sequence is 0xffffffff where Coffer built 0xfffffffd",
    ]);

    const final = checkSignedBitcoin(built.psbt, sign(built.psbt));
    const raw = RawTx.decode(hex.decode(final.hex));
    const changed = hex.encode(RawTx.encode({ ...raw, version: 1, lockTime: 500 }));
    expect(refusal(built, changed)).toEqual([
      'the transaction version is 1 where Coffer built 2',
      'the locktime is 500 where Coffer built 0',
    ]);
  });

  it('refuses another input in place of one Coffer chose', () => {
    const final = checkSignedBitcoin(built.psbt, sign(built.psbt));
    const raw = RawTx.decode(hex.decode(final.hex));
    const [first, second] = raw.inputs;
    if (!first || !second) throw new Error('two inputs expected');
    const swapped = hex.encode(RawTx.encode({ ...raw, inputs: [second, first] }));
    const [a, b] = [`${'01'.repeat(32)}:0`, `${'67'.repeat(32)}:2`];
    expect(refusal(built, swapped)).toEqual([
      `input 0 spends ${b} where Coffer built ${a}`,
      `input 1 spends ${a} where Coffer built ${b}`,
    ]);
    const fewer = hex.encode(
      RawTx.encode({ ...raw, inputs: [first], witnesses: raw.witnesses?.slice(0, 1) }),
    );
    expect(refusal(built, fewer)).toEqual([`input 1 (${'67'.repeat(32)}:2) is missing`]);
  });

  it('refuses an input left unsigned', () => {
    const tx = parse(built.psbt);
    tx.signIdx(keyAt(1, 2).privateKey ?? new Uint8Array(), 1);
    tx.finalizeIdx(1);
    expect(refusal(built, base64.encode(tx.toPSBT(0)))).toEqual(['input 0 is not signed']);
    expect(refusal(built, built.psbt)).toEqual(['input 0 is not signed', 'input 1 is not signed']);
  });

  it('refuses a signature by another key', () => {
    const final = checkSignedBitcoin(built.psbt, sign(built.psbt));
    const raw = RawTx.decode(hex.decode(final.hex));
    // The other mnemonic's key at the same path signs the very digest Coffer built.
    const stranger = keyAt(0, 0, otherRoot);
    const digest = parse(built.psbt).preimageWitnessV0(
      0,
      hex.decode(`76a914${spendable(0, 0n).script.slice(4)}88ac`),
      1,
      50_000n,
    );
    const signature = Uint8Array.from([
      ...secp256k1.sign(digest, stranger.privateKey ?? new Uint8Array(), {
        prehash: false,
        format: 'der',
      }),
      1,
    ]);
    const withWitness = (witness: Uint8Array[]) =>
      hex.encode(RawTx.encode({ ...raw, witnesses: [witness, ...(raw.witnesses ?? []).slice(1)] }));

    expect(
      refusal(built, withWitness([signature, stranger.publicKey ?? new Uint8Array()])),
    ).toEqual([
      `input 0 is signed by a key that does not own the output it spends (${bitcoinP2wpkh(publicKeyAt(0, 0), 'regtest').address})`,
    ]);
    expect(refusal(built, withWitness([signature, publicKeyAt(0, 0)]))).toEqual([
      "input 0's signature is not valid",
    ]);
    // A whole file signed with another mnemonic: its keys own none of the outputs.
    expect(() => sign(built.psbt, OTHER)).toThrow('Input 0 has no key this mnemonic derives');
  });

  it('verifies signatures against the amounts Coffer built, not the amounts in the file', () => {
    // A signer shown another input amount signs a digest committing to it: refused.
    const signed = tamperedAndSigned(built, (tx) =>
      tx.updateInput(0, {
        witnessUtxo: { script: hex.decode(spendable(0, 0n).script), amount: 50_500n },
      }),
    );
    expect(refusal(built, signed)).toEqual(["input 0's signature is not valid"]);
  });

  it('refuses a signature with a sighash other than ALL', () => {
    const anyoneCanPay = parse(built.psbt);
    anyoneCanPay.updateInput(0, { sighashType: 0x83 });
    anyoneCanPay.signIdx(keyAt(0, 0).privateKey ?? new Uint8Array(), 0, [0x83]);
    anyoneCanPay.signIdx(keyAt(1, 2).privateKey ?? new Uint8Array(), 1);
    expect(refusal(built, base64.encode(anyoneCanPay.toPSBT(0)))).toEqual([
      'input 0 is signed with sighash type 0x83; Coffer accepts SIGHASH_ALL only, which covers every input and output',
    ]);
  });

  it('refuses what is not a transaction at all', () => {
    const unreadable = ['the file is neither a PSBT (base64 or hex) nor a raw transaction (hex)'];
    expect(refusal(built, 'hello, world')).toEqual(unreadable);
    expect(refusal(built, '')).toEqual(unreadable);
    expect(refusal(built, 'deadbeef')).toEqual(unreadable);
    expect(refusal(built, base64.encode(new TextEncoder().encode('psbt\xff garbage')))).toEqual(
      unreadable,
    );
  });
});

describe('bumpBitcoinBatch', () => {
  const built = build();
  const changeIndex = built.change?.outputIndex ?? null;

  it('keeps the inputs and payouts and takes the higher fee from the change only', () => {
    const bumped = bumpBitcoinBatch(built, 5, changeIndex);
    expect(bumped.vsize).toBe(172);
    expect(bumped.fee).toBe(860n);
    expect(bumped.changeAmount).toBe((built.change?.amount ?? 0n) - (860n - 344n));
    expect(bumped.txid).not.toBe(built.txid);

    const before = parse(built.psbt);
    const after = parse(bumped.psbt);
    expect(after.id).toBe(bumped.txid);
    expect(after.fee).toBe(860n);
    expect(after.inputsLength).toBe(before.inputsLength);
    for (let i = 0; i < before.inputsLength; i++)
      expect(after.getInput(i)).toEqual(before.getInput(i));
    expect(after.outputsLength).toBe(3);
    expect(after.getOutput(0)).toEqual(before.getOutput(0));
    expect(after.getOutput(1)).toEqual(before.getOutput(1));
    expect(after.getOutput(2).script).toEqual(before.getOutput(2).script);
    expect(after.getOutput(2).bip32Derivation).toEqual(before.getOutput(2).bip32Derivation);
    expect(after.getOutput(2).amount).toBe(bumped.changeAmount);

    // The replacement is checked against itself like any batch.
    const result = checkSignedBitcoin(bumped.psbt, sign(bumped.psbt));
    expect(result.txid).toBe(bumped.txid);
    expect(result.fee).toBe(860n);
    // … and the original batch's file does not pass as the replacement.
    expect(() => checkSignedBitcoin(bumped.psbt, sign(built.psbt))).toThrow(PayoutFileError);
  });

  it('refuses a rate that is not higher, a change that cannot pay, and a batch without change', () => {
    expect(() => bumpBitcoinBatch(built, 2, changeIndex)).toThrow('not high enough');
    // 1 sat/vB more is the least a replacement adds.
    expect(() => bumpBitcoinBatch(built, 2.9, changeIndex)).toThrow('not high enough');
    expect(bumpBitcoinBatch(built, 3, changeIndex).fee).toBe(516n);
    expect(() => bumpBitcoinBatch(built, 200, changeIndex)).toThrow(
      'cannot pay the higher fee of 34400 sat',
    );
    expect(() => bumpBitcoinBatch(built, 5, null)).toThrow('no change output');
    expect(() => bumpBitcoinBatch(built, 5, 3)).toThrow('no output 3');
  });
});
