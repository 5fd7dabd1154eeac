import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { Address, Decimal, OutScript, RawTx, Transaction, type TxOpts } from '@scure/btc-signer';
import type { KeyOrigin } from '../chains';
import { BITCOIN_HRP, type BitcoinNetwork } from '../chains';

export type { KeyOrigin } from '../chains';

import { PayoutFileError } from './payout-file-error';

/**
 * Bitcoin payouts as one batched PSBT (BIP-174): Coffer builds it from the operator's
 * account public key alone, an offline signer (Sparrow, a hardware wallet, Bitcoin Core's
 * `walletprocesspsbt`, or Coffer's own `sign-payouts` CLI) signs it, and Coffer broadcasts
 * the result only after checking it is exactly the transaction it built, validly signed.
 * Every spend is a BIP-84 P2WPKH output on `account/0/i` (deposits) or `account/1/i`
 * (change); nothing here touches a database or a node.
 */

export type SpendableOutput = {
  txid: string;
  vout: number;
  amount: bigint;
  /** Hex output script: P2WPKH of `publicKey`. */
  script: string;
  change: 0 | 1;
  index: number;
  /** Hex compressed public key at account/change/index. */
  publicKey: string;
};
export type BtcPayout = {
  id: string;
  /** Hex output script of the destination. */
  script: string;
  amount: bigint;
};
export type BuildBitcoinBatchInput = {
  /** Oldest first. */
  spendable: SpendableOutput[];
  /** Oldest first. */
  payouts: BtcPayout[];
  /** sat/vB, already checked against the operator's cap by the caller. */
  feeRate: number | bigint;
  /** The next unused address on the internal chain, account/1/index. */
  change: { index: number; script: string; publicKey: string };
  /** The account key's own fingerprint (HDKey.fingerprint). */
  accountFingerprint: number;
  keyOrigin: KeyOrigin | null;
};
export type BuiltBitcoinBatch = {
  /** Base64 PSBT (version 0, the one every signer reads). */
  psbt: string;
  /** The unsigned transaction's id; segwit signatures do not change it. */
  txid: string;
  inputs: Array<{ txid: string; vout: number; amount: bigint }>;
  payouts: Array<{ id: string; outputIndex: number; script: string; amount: bigint }>;
  change: { outputIndex: number; amount: bigint; index: number } | null;
  fee: bigint;
  /** Estimated with 72-byte signatures, so never below the signed transaction's. */
  vsize: number;
  feeRate: number;
  /** Payouts the spendable outputs could not cover; they wait for the next batch. */
  skipped: Array<{ id: string; reason: 'funds' }>;
};

/** Bitcoin Core's dust limit for the most expensive standard output (P2PKH). */
export const DUST_SATS = 546n;
/** BIP-125: every input signals replaceability, so a stuck batch can be fee-bumped. */
export const RBF_SEQUENCE = 0xfffffffd;
const VERSION = 2;
const LOCKTIME = 0;
const SIGHASH_ALL = 1;
/** Bitcoin Core's default incremental relay fee: what a replacement must add per vB. */
const INCREMENTAL_RELAY_SAT_PER_VB = 1n;

/** Regtest's address parameters are Bitcoin Core's chainparams (bech32 `bcrt`). */
const ADDRESS_NETWORKS: Record<BitcoinNetwork, Parameters<typeof Address>[0]> = {
  mainnet: { bech32: BITCOIN_HRP.mainnet, pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  testnet: { bech32: BITCOIN_HRP.testnet, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  regtest: { bech32: BITCOIN_HRP.regtest, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};

// Payout destinations may be any script an address names (future segwit versions
// included), and a file under check may hold anything: parse it rather than fail on it.
const TX_OPTS: TxOpts = {
  version: VERSION,
  lockTime: LOCKTIME,
  allowUnknownOutputs: true,
  allowUnknownInputs: true,
  allowUnknownVersion: true,
  disableScriptCheck: true,
};

const hash160 = (bytes: Uint8Array): Uint8Array => ripemd160(sha256(bytes));

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function p2wpkhScriptOf(publicKey: Uint8Array): Uint8Array {
  return Uint8Array.from([0x00, 0x14, ...hash160(publicKey)]);
}

/** The 20-byte key hash of a P2WPKH script, or null for any other script. */
function p2wpkhProgram(script: Uint8Array): Uint8Array | null {
  return script.length === 22 && script[0] === 0x00 && script[1] === 0x14
    ? script.subarray(2)
    : null;
}

// ---------------------------------------------------------------------------------------
// Size and fee

function compactSizeLength(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : 5;
}

/** Weight of a P2WPKH input with a 72-byte signature (the longest low-S DER one). */
const P2WPKH_INPUT_WEIGHT = (32 + 4 + 1 + 4) * 4 + (1 + 1 + 72 + 1 + 33);

function outputWeight(scriptLength: number): number {
  return (8 + compactSizeLength(scriptLength) + scriptLength) * 4;
}

/**
 * Virtual size of a transaction spending `inputs` P2WPKH outputs to outputs with these
 * script lengths: version, locktime, counts, the segwit marker and flag, 68 vB an input,
 * 31 vB a P2WPKH output. Rounded up.
 */
function estimateVsize(inputs: number, outputScriptLengths: readonly number[]): number {
  const weight =
    (4 + 4 + compactSizeLength(inputs) + compactSizeLength(outputScriptLengths.length)) * 4 +
    2 +
    inputs * P2WPKH_INPUT_WEIGHT +
    outputScriptLengths.reduce((sum, length) => sum + outputWeight(length), 0);
  return Math.ceil(weight / 4);
}

function checkFeeRate(feeRate: number | bigint): number {
  const rate = Number(feeRate);
  if (!Number.isFinite(rate) || rate <= 0) {
    throw new RangeError(`A fee rate is a positive number of sat/vB, got ${String(feeRate)}`);
  }
  return rate;
}

/** feeRate × vsize, rounded up; the rate to a thousandth of a sat/vB so floats do not drift. */
function feeFor(feeRate: number, vsize: number): bigint {
  const milli = BigInt(Math.round(feeRate * 1000));
  return (milli * BigInt(vsize) + 999n) / 1000n;
}

// ---------------------------------------------------------------------------------------
// Building

function hexBytes(value: string, what: string): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(value)) throw new Error(`${what} is not hex`);
  return hex.decode(value.toLowerCase());
}

type Selection = {
  inputs: number;
  total: bigint;
  fee: bigint;
  vsize: number;
  change: bigint | null;
};

/**
 * The fewest oldest spendable outputs that pay `payouts` plus the fee, with a change output
 * when what is left is at least dust (below it, the rest goes to the fee).
 */
function select(
  amounts: readonly bigint[],
  payouts: readonly { amount: bigint; scriptLength: number }[],
  changeScriptLength: number,
  feeRate: number,
): Selection | null {
  const paid = payouts.reduce((sum, p) => sum + p.amount, 0n);
  const lengths = payouts.map((p) => p.scriptLength);
  let total = 0n;
  for (let n = 1; n <= amounts.length; n++) {
    total += amounts[n - 1] ?? 0n;
    const withChange = estimateVsize(n, [...lengths, changeScriptLength]);
    const changeFee = feeFor(feeRate, withChange);
    if (total - paid - changeFee >= DUST_SATS) {
      return {
        inputs: n,
        total,
        fee: changeFee,
        vsize: withChange,
        change: total - paid - changeFee,
      };
    }
    const withoutChange = estimateVsize(n, lengths);
    if (total - paid >= feeFor(feeRate, withoutChange)) {
      return { inputs: n, total, fee: total - paid, vsize: withoutChange, change: null };
    }
  }
  return null;
}

function derivationOf(
  publicKey: Uint8Array,
  change: 0 | 1,
  index: number,
  accountFingerprint: number,
  keyOrigin: KeyOrigin | null,
): [Uint8Array, { fingerprint: number; path: number[] }] {
  return keyOrigin
    ? [publicKey, { fingerprint: keyOrigin.fingerprint, path: [...keyOrigin.path, change, index] }]
    : [publicKey, { fingerprint: accountFingerprint, path: [change, index] }];
}

function checkIndex(index: number, what: string): void {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) {
    throw new RangeError(`${what}: a derivation index is a whole number from 0 to 2^31 - 1`);
  }
}

/**
 * One PSBT paying as many approved payouts as the spendable outputs cover, oldest first; a
 * payout that does not fit is skipped, and a later smaller one may still fit. Null when no
 * payout fits.
 */
export function buildBitcoinBatch(input: BuildBitcoinBatchInput): BuiltBitcoinBatch | null {
  const feeRate = checkFeeRate(input.feeRate);
  const seen = new Set<string>();
  const spendable = input.spendable.map((output) => {
    const key = `${output.txid}:${output.vout}`;
    if (seen.has(key)) throw new Error(`The output ${key} is listed twice`);
    seen.add(key);
    checkIndex(output.index, key);
    const publicKey = hexBytes(output.publicKey, `The public key of ${key}`);
    const script = hexBytes(output.script, `The script of ${key}`);
    // A spend must be one a BIP-84 signer recognises as its own: P2WPKH of the derived key.
    if (!equalBytes(script, p2wpkhScriptOf(publicKey))) {
      throw new Error(`The output ${key} is not P2WPKH of its derived key`);
    }
    if (output.amount <= 0n) throw new RangeError(`The output ${key} has no amount`);
    return { ...output, publicKeyBytes: publicKey, scriptBytes: script };
  });
  const payouts = input.payouts.map((payout) => {
    if (payout.amount <= 0n) throw new RangeError(`Payout ${payout.id} has no amount`);
    const script = hexBytes(payout.script, `The script of payout ${payout.id}`);
    if (script.length === 0) throw new Error(`Payout ${payout.id} has no script`);
    return { ...payout, scriptBytes: script, scriptLength: script.length };
  });
  checkIndex(input.change.index, 'The change address');
  const changeKey = hexBytes(input.change.publicKey, 'The change public key');
  const changeScript = hexBytes(input.change.script, 'The change script');
  if (!equalBytes(changeScript, p2wpkhScriptOf(changeKey))) {
    throw new Error('The change script is not P2WPKH of the change key');
  }

  const amounts = spendable.map((s) => s.amount);
  const included: typeof payouts = [];
  const skipped: BuiltBitcoinBatch['skipped'] = [];
  let selection: Selection | null = null;
  for (const payout of payouts) {
    const attempt = select(amounts, [...included, payout], changeScript.length, feeRate);
    if (attempt) {
      included.push(payout);
      selection = attempt;
    } else {
      skipped.push({ id: payout.id, reason: 'funds' });
    }
  }
  if (!selection || included.length === 0) return null;

  const tx = new Transaction(TX_OPTS);
  const inputs = spendable.slice(0, selection.inputs);
  for (const output of inputs) {
    tx.addInput({
      txid: hex.decode(output.txid),
      index: output.vout,
      sequence: RBF_SEQUENCE,
      witnessUtxo: { script: output.scriptBytes, amount: output.amount },
      bip32Derivation: [
        derivationOf(
          output.publicKeyBytes,
          output.change,
          output.index,
          input.accountFingerprint,
          input.keyOrigin,
        ),
      ],
    });
  }
  const paid = included.map((payout) => ({
    id: payout.id,
    outputIndex: tx.addOutput({ script: payout.scriptBytes, amount: payout.amount }),
    script: hex.encode(payout.scriptBytes),
    amount: payout.amount,
  }));
  const change =
    selection.change === null
      ? null
      : {
          outputIndex: tx.addOutput({
            script: changeScript,
            amount: selection.change,
            bip32Derivation: [
              derivationOf(
                changeKey,
                1,
                input.change.index,
                input.accountFingerprint,
                input.keyOrigin,
              ),
            ],
          }),
          amount: selection.change,
          index: input.change.index,
        };
  return {
    psbt: base64.encode(tx.toPSBT(0)),
    txid: tx.id,
    inputs: inputs.map((output) => ({
      txid: output.txid,
      vout: output.vout,
      amount: output.amount,
    })),
    payouts: paid,
    change,
    fee: selection.fee,
    vsize: selection.vsize,
    feeRate,
    skipped,
  };
}

// ---------------------------------------------------------------------------------------
// Fee bump (BIP-125 replacement)

/**
 * The same inputs and payout outputs at a higher fee rate, the difference taken from the
 * change output. Throws when the rate is not higher by at least the relay increment, or the
 * change (kept at least dust) cannot pay for it.
 */
export function bumpBitcoinBatch(
  built: { psbt: string },
  newFeeRate: number,
  changeOutputIndex: number | null,
): { psbt: string; txid: string; fee: bigint; vsize: number; changeAmount: bigint } {
  const rate = checkFeeRate(newFeeRate);
  const tx = Transaction.fromPSBT(base64.decode(built.psbt), TX_OPTS);
  if (changeOutputIndex === null) {
    throw new Error('The batch has no change output to take a higher fee from');
  }
  if (
    !Number.isInteger(changeOutputIndex) ||
    changeOutputIndex < 0 ||
    changeOutputIndex >= tx.outputsLength
  ) {
    throw new Error(`The batch has no output ${changeOutputIndex}`);
  }
  let inputTotal = 0n;
  for (let i = 0; i < tx.inputsLength; i++) {
    const utxo = tx.getInput(i).witnessUtxo;
    if (!utxo || !p2wpkhProgram(utxo.script)) {
      throw new Error(`Input ${i} of the batch is not a P2WPKH output Coffer built on`);
    }
    inputTotal += utxo.amount;
  }
  const outputs = Array.from({ length: tx.outputsLength }, (_, i) => tx.getOutput(i));
  const outputTotal = outputs.reduce((sum, o) => sum + (o.amount ?? 0n), 0n);
  const oldFee = inputTotal - outputTotal;
  const vsize = estimateVsize(
    tx.inputsLength,
    outputs.map((o) => o.script?.length ?? 0),
  );
  const fee = feeFor(rate, vsize);
  const minimum = oldFee + INCREMENTAL_RELAY_SAT_PER_VB * BigInt(vsize);
  if (fee < minimum) {
    throw new Error(
      `The new fee rate ${rate} sat/vB is not high enough to replace the batch: its fee is ${oldFee} sat, and a replacement must pay at least ${minimum} sat (${INCREMENTAL_RELAY_SAT_PER_VB} sat/vB more)`,
    );
  }
  const change = outputs[changeOutputIndex]?.amount ?? 0n;
  const changeAmount = change - (fee - oldFee);
  if (changeAmount < DUST_SATS) {
    throw new Error(
      `The change (${change} sat) cannot pay the higher fee of ${fee} sat and keep at least ${DUST_SATS} sat`,
    );
  }
  tx.updateOutput(changeOutputIndex, { amount: changeAmount });
  return { psbt: base64.encode(tx.toPSBT(0)), txid: tx.id, fee, vsize, changeAmount };
}

// ---------------------------------------------------------------------------------------
// Checking a signed file

function describeAmount(amount: bigint): string {
  return `${Decimal.encode(amount)} BTC`;
}

function describeScript(script: Uint8Array, network: BitcoinNetwork | undefined): string {
  if (network) {
    try {
      return Address(ADDRESS_NETWORKS[network]).encode(OutScript.decode(script));
    } catch {
      // Not a script an address names: shown as hex below.
    }
  }
  return `the script ${hex.encode(script)}`;
}

function outpointOf(input: { txid?: Uint8Array; index?: number }): string {
  return `${input.txid ? hex.encode(input.txid) : '?'}:${input.index ?? '?'}`;
}

/** The file as a transaction: a PSBT (base64 or hex) or a raw transaction (hex). */
function readSigned(signed: string): Transaction {
  const text = signed.trim();
  const unreadable = new PayoutFileError([
    'the file is neither a PSBT (base64 or hex) nor a raw transaction (hex)',
  ]);
  try {
    if (/^[0-9a-fA-F]+$/.test(text)) {
      const bytes = hex.decode(text.toLowerCase());
      // "psbt" and 0xff: BIP-174's magic.
      return text.toLowerCase().startsWith('70736274ff')
        ? Transaction.fromPSBT(bytes, TX_OPTS)
        : Transaction.fromRaw(bytes, TX_OPTS);
    }
    return Transaction.fromPSBT(base64.decode(text.replace(/\s+/g, '')), TX_OPTS);
  } catch {
    throw unreadable;
  }
}

/** The [signature, public key] an input is signed with, from a final witness or a partial signature. */
function witnessOf(tx: Transaction, idx: number, program: Uint8Array): Uint8Array[] | null {
  const input = tx.getInput(idx);
  if (input.finalScriptWitness && input.finalScriptWitness.length > 0) {
    return input.finalScriptWitness;
  }
  const partial = input.partialSig ?? [];
  const own = partial.find(([key]) => equalBytes(hash160(key), program)) ?? partial[0];
  return own ? [own[1], own[0]] : null;
}

/**
 * Checks a signed payout file against the PSBT Coffer built: same version and locktime,
 * the same inputs (outpoint and sequence) and outputs (script and amount) in the same
 * order, and every input validly signed by the key its output belongs to, verified
 * against the built amounts (never the file's). Returns the final transaction, assembled
 * from the built one and the verified witnesses; throws a PayoutFileError listing every
 * difference otherwise. `network` only names destinations as addresses in the messages.
 */
export function checkSignedBitcoin(
  builtPsbtBase64: string,
  signed: string,
  network?: BitcoinNetwork,
): { txid: string; hex: string; fee: bigint; vsize: number } {
  const built = Transaction.fromPSBT(base64.decode(builtPsbtBase64), TX_OPTS);
  const file = readSigned(signed);
  const differences: string[] = [];

  if (file.version !== built.version) {
    differences.push(
      `the transaction version is ${file.version} where Coffer built ${built.version}`,
    );
  }
  if (file.lockTime !== built.lockTime) {
    differences.push(`the locktime is ${file.lockTime} where Coffer built ${built.lockTime}`);
  }
  for (let i = 0; i < Math.max(file.inputsLength, built.inputsLength); i++) {
    if (i >= built.inputsLength) {
      differences.push(`an extra input ${i} (${outpointOf(file.getInput(i))})`);
      continue;
    }
    const want = built.getInput(i);
    if (i >= file.inputsLength) {
      differences.push(`input ${i} (${outpointOf(want)}) is missing`);
      continue;
    }
    const got = file.getInput(i);
    if (outpointOf(got) !== outpointOf(want)) {
      differences.push(
        `input ${i} spends ${outpointOf(got)} where Coffer built ${outpointOf(want)}`,
      );
    }
    if (got.sequence !== want.sequence) {
      differences.push(
        `input ${i}'s sequence is 0x${(got.sequence ?? 0).toString(16)} where Coffer built 0x${(want.sequence ?? 0).toString(16)}`,
      );
    }
  }
  for (let i = 0; i < Math.max(file.outputsLength, built.outputsLength); i++) {
    if (i >= built.outputsLength) {
      const extra = file.getOutput(i);
      differences.push(
        `an extra output ${i} (${describeScript(extra.script ?? new Uint8Array(), network)}, ${describeAmount(extra.amount ?? 0n)})`,
      );
      continue;
    }
    const want = built.getOutput(i);
    const wantScript = want.script ?? new Uint8Array();
    const wantAmount = want.amount ?? 0n;
    if (i >= file.outputsLength) {
      differences.push(
        `output ${i} (${describeScript(wantScript, network)}, ${describeAmount(wantAmount)}) is missing`,
      );
      continue;
    }
    const got = file.getOutput(i);
    const gotScript = got.script ?? new Uint8Array();
    const gotAmount = got.amount ?? 0n;
    if (!equalBytes(gotScript, wantScript)) {
      differences.push(
        `output ${i} pays ${describeScript(gotScript, network)} ${describeAmount(gotAmount)} where Coffer built ${describeScript(wantScript, network)} ${describeAmount(wantAmount)}`,
      );
    } else if (gotAmount !== wantAmount) {
      differences.push(
        `output ${i} pays ${describeScript(gotScript, network)} ${describeAmount(gotAmount)} where Coffer built ${describeAmount(wantAmount)}`,
      );
    }
  }
  // Signatures over another transaction say nothing about this one.
  if (differences.length > 0) throw new PayoutFileError(differences);

  const witnesses: Uint8Array[][] = [];
  let inputTotal = 0n;
  for (let i = 0; i < built.inputsLength; i++) {
    const utxo = built.getInput(i).witnessUtxo;
    const program = utxo ? p2wpkhProgram(utxo.script) : null;
    if (!utxo || !program) {
      differences.push(`input ${i} is not a P2WPKH output Coffer built on`);
      continue;
    }
    inputTotal += utxo.amount;
    const fileInput = file.getInput(i);
    if (fileInput.finalScriptSig && fileInput.finalScriptSig.length > 0) {
      differences.push(`input ${i} carries a scriptSig, which a P2WPKH spend does not have`);
      continue;
    }
    const witness = witnessOf(file, i, program);
    if (!witness) {
      differences.push(`input ${i} is not signed`);
      continue;
    }
    const [signature, publicKey] = witness;
    if (witness.length !== 2 || !signature || !publicKey) {
      differences.push(`input ${i}'s witness is not one signature and one public key`);
      continue;
    }
    if (!equalBytes(hash160(publicKey), program)) {
      differences.push(
        `input ${i} is signed by a key that does not own the output it spends (${describeScript(utxo.script, network)})`,
      );
      continue;
    }
    const sighash = signature[signature.length - 1];
    if (sighash !== SIGHASH_ALL) {
      differences.push(
        `input ${i} is signed with sighash type 0x${(sighash ?? 0).toString(16)}; Coffer accepts SIGHASH_ALL only, which covers every input and output`,
      );
      continue;
    }
    // BIP-143's script code for P2WPKH is the P2PKH script of the key hash.
    const scriptCode = Uint8Array.from([0x76, 0xa9, 0x14, ...program, 0x88, 0xac]);
    const digest = built.preimageWitnessV0(i, scriptCode, SIGHASH_ALL, utxo.amount);
    let valid = false;
    try {
      valid = secp256k1.verify(signature.subarray(0, -1), digest, publicKey, {
        prehash: false,
        format: 'der',
        lowS: true,
      });
    } catch {
      valid = false;
    }
    if (!valid) {
      differences.push(`input ${i}'s signature is not valid`);
      continue;
    }
    witnesses.push([signature, publicKey]);
  }
  if (differences.length > 0) throw new PayoutFileError(differences);

  const outputs = Array.from({ length: built.outputsLength }, (_, i) => built.getOutput(i));
  const raw = RawTx.encode({
    version: built.version,
    segwitFlag: true,
    inputs: Array.from({ length: built.inputsLength }, (_, i) => {
      const input = built.getInput(i);
      return {
        txid: input.txid ?? new Uint8Array(32),
        index: input.index ?? 0,
        finalScriptSig: new Uint8Array(),
        sequence: input.sequence ?? RBF_SEQUENCE,
      };
    }),
    outputs: outputs.map((o) => ({ script: o.script ?? new Uint8Array(), amount: o.amount ?? 0n })),
    witnesses,
    lockTime: built.lockTime,
  });
  const final = Transaction.fromRaw(raw, TX_OPTS);
  const fee = inputTotal - outputs.reduce((sum, o) => sum + (o.amount ?? 0n), 0n);
  return { txid: final.id, hex: hex.encode(raw), fee, vsize: final.vsize };
}

// ---------------------------------------------------------------------------------------
// Signing (the offline CLI and tests only: the server never holds a private key)

/**
 * Signs every P2WPKH input of a Coffer PSBT with keys from a BIP-39 mnemonic and finalizes
 * it. A derivation whose fingerprint is the master key's is followed from the master; any
 * other is taken as relative to `accountPath` (a batch built without a key origin carries
 * the account key's fingerprint and account-relative paths). Throws when an input has no
 * key this mnemonic derives.
 */
export function signBitcoinPsbt(
  psbtBase64: string,
  mnemonic: string,
  opts: { accountPath: string; passphrase?: string },
): string {
  const phrase = mnemonic.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(phrase, wordlist)) {
    throw new Error('The mnemonic is not a valid BIP-39 English phrase');
  }
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(phrase, opts.passphrase ?? ''));
  const account = master.derive(opts.accountPath);
  const tx = Transaction.fromPSBT(base64.decode(psbtBase64.trim()), TX_OPTS);
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    let signer: Uint8Array | null = null;
    for (const [publicKey, { fingerprint, path }] of input.bip32Derivation ?? []) {
      let node = fingerprint === master.fingerprint ? master : account;
      for (const step of path) node = node.deriveChild(step);
      if (node.publicKey && node.privateKey && equalBytes(node.publicKey, publicKey)) {
        signer = node.privateKey;
        break;
      }
    }
    if (!signer) {
      throw new Error(`Input ${i} has no key this mnemonic derives (check the account path)`);
    }
    tx.signIdx(signer, i);
    tx.finalizeIdx(i);
  }
  return base64.encode(tx.toPSBT(0));
}
