import { base64, hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import type { KeyOrigin } from '../chains';
import {
  type BuildBitcoinBatchInput,
  type BuiltBitcoinBatch,
  checkFeeRate,
  DUST_SATS,
  equalBytes,
  estimateVsize,
  feeFor,
  p2wpkhProgram,
  p2wpkhScriptOf,
  RBF_SEQUENCE,
  TX_OPTS,
} from './bitcoin-psbt';

/**
 * Building a Bitcoin payout batch from the account public key alone, and its fee bump
 * (BIP-125 replacement); the shapes and sizes are in `bitcoin-psbt.ts`.
 */

/** Bitcoin Core's default incremental relay fee: what a replacement must add per vB. */
const INCREMENTAL_RELAY_SAT_PER_VB = 1n;

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

/** The build's inputs as bytes, each checked: spends, payouts and the change address. */
function parsedInput(input: BuildBitcoinBatchInput) {
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
  return { spendable, payouts, changeKey, changeScript };
}

/**
 * One PSBT paying as many approved payouts as the spendable outputs cover, oldest first; a
 * payout that does not fit is skipped, and a later smaller one may still fit. Null when no
 * payout fits.
 */
export function buildBitcoinBatch(input: BuildBitcoinBatchInput): BuiltBitcoinBatch | null {
  const feeRate = checkFeeRate(input.feeRate);
  const { spendable, payouts, changeKey, changeScript } = parsedInput(input);

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
