import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { Address, Decimal, OutScript, RawTx, Transaction } from '@scure/btc-signer';
import { BITCOIN_HRP, type BitcoinNetwork } from '../chains';
import { equalBytes, hash160, p2wpkhProgram, RBF_SEQUENCE, TX_OPTS } from './bitcoin-psbt';
import { PayoutFileError } from './payout-file-error';

/**
 * Checking a signed Bitcoin payout file against the PSBT Coffer built: the transaction
 * first, then every signature, each difference named in words.
 */

const SIGHASH_ALL = 1;

/** Regtest's address parameters are Bitcoin Core's chainparams (bech32 `bcrt`). */
const ADDRESS_NETWORKS: Record<BitcoinNetwork, Parameters<typeof Address>[0]> = {
  mainnet: { bech32: BITCOIN_HRP.mainnet, pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  testnet: { bech32: BITCOIN_HRP.testnet, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  regtest: { bech32: BITCOIN_HRP.regtest, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};

function describeAmount(amount: bigint): string {
  return `${Decimal.encode(amount)} BTC`;
}

/**
 * An output's destination as the operator knows it: the address in the format of the
 * network the server runs on (`bcrt1…` on regtest; the payouts service always says which).
 * Only a script no address names (none Coffer builds), or a check run without a network, is
 * shown as hex.
 */
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

/** How the file's inputs (outpoint and sequence) differ from the built ones. */
function inputDifferences(file: Transaction, built: Transaction): string[] {
  const differences: string[] = [];
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
  return differences;
}

/** How the file's outputs (script and amount) differ from the built ones. */
function outputDifferences(
  file: Transaction,
  built: Transaction,
  network: BitcoinNetwork | undefined,
): string[] {
  const differences: string[] = [];
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
  return differences;
}

/** Every way the file is not the transaction Coffer built: version, locktime, inputs, outputs. */
function transactionDifferences(
  file: Transaction,
  built: Transaction,
  network: BitcoinNetwork | undefined,
): string[] {
  const differences: string[] = [];
  if (file.version !== built.version) {
    differences.push(
      `the transaction version is ${file.version} where Coffer built ${built.version}`,
    );
  }
  if (file.lockTime !== built.lockTime) {
    differences.push(`the locktime is ${file.lockTime} where Coffer built ${built.lockTime}`);
  }
  return [
    ...differences,
    ...inputDifferences(file, built),
    ...outputDifferences(file, built, network),
  ];
}

/**
 * Input `i`'s witness from the file, verified against the built transaction and amount:
 * the [signature, public key] to keep, or the difference that refuses it.
 */
function verifiedWitness(
  file: Transaction,
  built: Transaction,
  i: number,
  network: BitcoinNetwork | undefined,
): Uint8Array[] | string {
  const utxo = built.getInput(i).witnessUtxo;
  const program = utxo ? p2wpkhProgram(utxo.script) : null;
  if (!utxo || !program) return `input ${i} is not a P2WPKH output Coffer built on`;
  const fileInput = file.getInput(i);
  if (fileInput.finalScriptSig && fileInput.finalScriptSig.length > 0) {
    return `input ${i} carries a scriptSig, which a P2WPKH spend does not have`;
  }
  const witness = witnessOf(file, i, program);
  if (!witness) return `input ${i} is not signed`;
  const [signature, publicKey] = witness;
  if (witness.length !== 2 || !signature || !publicKey) {
    return `input ${i}'s witness is not one signature and one public key`;
  }
  if (!equalBytes(hash160(publicKey), program)) {
    return `input ${i} is signed by a key that does not own the output it spends (${describeScript(utxo.script, network)})`;
  }
  const sighash = signature[signature.length - 1];
  if (sighash !== SIGHASH_ALL) {
    return `input ${i} is signed with sighash type 0x${(sighash ?? 0).toString(16)}; Coffer accepts SIGHASH_ALL only, which covers every input and output`;
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
  if (!valid) return `input ${i}'s signature is not valid`;
  return [signature, publicKey];
}

/** The built transaction with the verified witnesses: its id, raw hex, fee and size. */
function assembled(
  built: Transaction,
  witnesses: Uint8Array[][],
): { txid: string; hex: string; fee: bigint; vsize: number } {
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
  let inputTotal = 0n;
  for (let i = 0; i < built.inputsLength; i++) {
    inputTotal += built.getInput(i).witnessUtxo?.amount ?? 0n;
  }
  const fee = inputTotal - outputs.reduce((sum, o) => sum + (o.amount ?? 0n), 0n);
  return { txid: final.id, hex: hex.encode(raw), fee, vsize: final.vsize };
}

/**
 * Checks a signed payout file against the PSBT Coffer built: same version and locktime,
 * the same inputs (outpoint and sequence) and outputs (script and amount) in the same
 * order, and every input validly signed by the key its output belongs to, verified
 * against the built amounts (never the file's). Returns the final transaction, assembled
 * from the built one and the verified witnesses; throws a PayoutFileError listing every
 * difference otherwise. `network` names destinations as its addresses in the messages.
 */
export function checkSignedBitcoin(
  builtPsbtBase64: string,
  signed: string,
  network?: BitcoinNetwork,
): { txid: string; hex: string; fee: bigint; vsize: number } {
  const built = Transaction.fromPSBT(base64.decode(builtPsbtBase64), TX_OPTS);
  const file = readSigned(signed);
  const differences = transactionDifferences(file, built, network);
  // Signatures over another transaction say nothing about this one.
  if (differences.length > 0) throw new PayoutFileError(differences);

  const witnesses: Uint8Array[][] = [];
  for (let i = 0; i < built.inputsLength; i++) {
    const witness = verifiedWitness(file, built, i, network);
    if (typeof witness === 'string') differences.push(witness);
    else witnesses.push(witness);
  }
  if (differences.length > 0) throw new PayoutFileError(differences);
  return assembled(built, witnesses);
}
