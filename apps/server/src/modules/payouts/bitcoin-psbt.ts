import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { TxOpts } from '@scure/btc-signer';
import type { KeyOrigin } from '../chains';

export type { KeyOrigin } from '../chains';

/**
 * Bitcoin payouts as one batched PSBT (BIP-174): Coffer builds it from the operator's
 * account public key alone (`bitcoin-psbt-build.ts`), an offline signer (Sparrow, a hardware
 * wallet, Bitcoin Core's `walletprocesspsbt`, or Coffer's own `sign-payouts` CLI,
 * `bitcoin-psbt-sign.ts`) signs it, and Coffer broadcasts the result only after checking it
 * is exactly the transaction it built, validly signed (`bitcoin-psbt-check.ts`). Every spend
 * is a BIP-84 P2WPKH output on `account/0/i` (deposits) or `account/1/i` (change); nothing
 * here touches a database or a node. This file holds what the three parts share: the
 * shapes, the transaction's fixed fields, and sizes and fees.
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

// Payout destinations may be any script an address names (future segwit versions
// included), and a file under check may hold anything: parse it rather than fail on it.
export const TX_OPTS: TxOpts = {
  version: VERSION,
  lockTime: LOCKTIME,
  allowUnknownOutputs: true,
  allowUnknownInputs: true,
  allowUnknownVersion: true,
  disableScriptCheck: true,
};

export const hash160 = (bytes: Uint8Array): Uint8Array => ripemd160(sha256(bytes));

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

export function p2wpkhScriptOf(publicKey: Uint8Array): Uint8Array {
  return Uint8Array.from([0x00, 0x14, ...hash160(publicKey)]);
}

/** The 20-byte key hash of a P2WPKH script, or null for any other script. */
export function p2wpkhProgram(script: Uint8Array): Uint8Array | null {
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
export function estimateVsize(inputs: number, outputScriptLengths: readonly number[]): number {
  const weight =
    (4 + 4 + compactSizeLength(inputs) + compactSizeLength(outputScriptLengths.length)) * 4 +
    2 +
    inputs * P2WPKH_INPUT_WEIGHT +
    outputScriptLengths.reduce((sum, length) => sum + outputWeight(length), 0);
  return Math.ceil(weight / 4);
}

export function checkFeeRate(feeRate: number | bigint): number {
  const rate = Number(feeRate);
  if (!Number.isFinite(rate) || rate <= 0) {
    throw new RangeError(`A fee rate is a positive number of sat/vB, got ${String(feeRate)}`);
  }
  return rate;
}

/** feeRate × vsize, rounded up; the rate to a thousandth of a sat/vB so floats do not drift. */
export function feeFor(feeRate: number, vsize: number): bigint {
  const milli = BigInt(Math.round(feeRate * 1000));
  return (milli * BigInt(vsize) + 999n) / 1000n;
}
