import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  formatGwei,
  getAddress,
  type Hex,
  isHex,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
} from 'viem';
import {
  type EthPayoutEntry,
  type EthPayoutFile,
  shorten,
  transferData,
} from './ethereum-payout-tx';
import { PayoutFileError } from './payout-file-error';

/**
 * Signed Ethereum submissions: reading what an operator hands back, and checking each
 * signed transaction against the entry Coffer built, every difference named.
 */

const SIGNED_SHAPE = /^(0x)?02([0-9a-fA-F]{2})+$/;

function signedHexOf(value: unknown, where: string, problems: string[]): Hex | null {
  if (typeof value !== 'string' || !SIGNED_SHAPE.test(value.trim())) {
    const shown = typeof value === 'string' ? `"${shorten(value.trim())}"` : typeof value;
    problems.push(`${where} is not a signed EIP-1559 transaction (hex starting 0x02): ${shown}`);
    return null;
  }
  const trimmed = value.trim().toLowerCase();
  return (trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex;
}

/**
 * What an operator hands back: the payout file with `signed` filled in per entry, or the
 * raw signed transactions alone (a JSON array or one per line), as other signing tools
 * produce them. Raw transactions carry no entry index; the service matches them by nonce.
 */
export function parseEthereumSubmission(
  text: string,
): Array<{ entryIndex: number | null; signed: Hex }> {
  const trimmed = text.trim();
  if (trimmed === '') throw new PayoutFileError(['The submission is empty']);
  const problems: string[] = [];
  const out: Array<{ entryIndex: number | null; signed: Hex }> = [];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new PayoutFileError(['The submission is not valid JSON']);
    }
    if (Array.isArray(parsed)) {
      parsed.forEach((value, i) => {
        const signed = signedHexOf(value, `Item ${i + 1}`, problems);
        if (signed) out.push({ entryIndex: null, signed });
      });
    } else {
      const file = parsed as Partial<EthPayoutFile> | null;
      if (file?.kind !== 'coffer-ethereum-payouts' || !Array.isArray(file.entries)) {
        throw new PayoutFileError(['The JSON is not a Coffer Ethereum payout file']);
      }
      file.entries.forEach((entry: unknown, i) => {
        const signed = (entry as { signed?: unknown } | null)?.signed;
        if (signed === undefined || signed === null || signed === '') return;
        const hex = signedHexOf(signed, `Entry ${i + 1}'s signed`, problems);
        if (hex) out.push({ entryIndex: i, signed: hex });
      });
    }
  } else {
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      const signed = signedHexOf(line, `Line ${i + 1}`, problems);
      if (signed) out.push({ entryIndex: null, signed });
    });
  }
  if (problems.length > 0) throw new PayoutFileError(problems);
  if (out.length === 0) throw new PayoutFileError(['The submission holds no signed transaction']);
  return out;
}

function isEip1559Hex(hex: Hex): hex is `0x02${string}` {
  return hex.startsWith('0x02');
}

function gwei(wei: bigint): string {
  return `${formatGwei(wei)} gwei`;
}

/** The recipient and amount of an ERC-20 `transfer` call, or null when `data` is not one. */
function decodeTransfer(data: Hex): { recipient: Address; amount: bigint } | null {
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data });
    if (call.functionName !== 'transfer') return null;
    const [recipient, amount] = call.args;
    return { recipient: getAddress(recipient), amount };
  } catch {
    return null;
  }
}

/** Plain words for a changed calldata: a token transfer's recipient or amount if both are one. */
function dataDifferences(signed: Hex, built: Hex): string[] {
  if (signed.toLowerCase() === built.toLowerCase()) return [];
  const a = decodeTransfer(signed);
  const b = decodeTransfer(built);
  // Words only when the signed calldata is exactly a transfer (no trailing bytes hidden
  // after it); anything else is shown as the hex it is.
  if (a && b && transferData(a.recipient, a.amount) === signed.toLowerCase()) {
    const out: string[] = [];
    if (a.recipient !== b.recipient) {
      out.push(`the token transfer goes to ${a.recipient} where Coffer built ${b.recipient}`);
    }
    if (a.amount !== b.amount) {
      out.push(`the token transfer is ${a.amount} where Coffer built ${b.amount}`);
    }
    if (out.length > 0) return out;
  }
  return [`data is ${shorten(signed)} where Coffer built ${shorten(built)}`];
}

/**
 * Checks that a signed transaction is exactly the entry Coffer built, signed by the payout
 * address: same recipient (`to`), value, calldata, nonce, chain and gas; fees no higher
 * than built (a signer may lower them, never raise them), and, when the caller passes the
 * latest block's base fee, a max fee not below it (the node would queue it and never mine
 * it). Throws PayoutFileError listing every difference; returns the hash and raw bytes to
 * broadcast.
 */
export async function checkSignedEthereum(
  entry: EthPayoutEntry,
  signed: Hex,
  payoutAddress: string,
  chain: { baseFeePerGas?: bigint | null } = {},
): Promise<{ hash: Hex; raw: Hex }> {
  const raw = signed.trim().toLowerCase() as Hex;
  if (!isHex(raw, { strict: true }) || raw.length < 4) {
    throw new PayoutFileError([`${shorten(signed)} is not a hex transaction`]);
  }
  let tx: ReturnType<typeof parseTransaction>;
  try {
    tx = parseTransaction(raw);
  } catch {
    throw new PayoutFileError([`${shorten(raw)} is not a transaction Coffer can read`]);
  }
  if (tx.type !== 'eip1559') {
    throw new PayoutFileError([
      `the signed transaction is of type ${tx.type}; Coffer built an EIP-1559 (type 2) transaction`,
    ]);
  }
  if (tx.r === undefined || tx.s === undefined || tx.yParity === undefined) {
    throw new PayoutFileError(['the transaction is not signed']);
  }
  if (!isEip1559Hex(raw)) {
    throw new PayoutFileError(['the signed transaction does not start 0x02 (EIP-1559)']);
  }
  const differences: string[] = [];
  let signer: Address;
  try {
    signer = await recoverTransactionAddress({ serializedTransaction: raw });
  } catch {
    throw new PayoutFileError(['the signature does not recover to any address']);
  }
  const payout = getAddress(payoutAddress);
  if (signer !== payout) {
    differences.push(`signed by ${signer} instead of the payout address ${payout}`);
  }
  const builtTo = getAddress(entry.to);
  if (tx.to === undefined || tx.to === null) {
    differences.push(`to is missing (a contract creation) where Coffer built ${builtTo}`);
  } else if (getAddress(tx.to) !== builtTo) {
    differences.push(`to is ${getAddress(tx.to)} where Coffer built ${builtTo}`);
  }
  const value = tx.value ?? 0n;
  if (value !== BigInt(entry.value)) {
    differences.push(`value is ${value} wei where Coffer built ${entry.value} wei`);
  }
  differences.push(...dataDifferences(tx.data ?? '0x', entry.data));
  const nonce = tx.nonce ?? 0;
  if (nonce !== entry.nonce) {
    differences.push(`nonce is ${nonce} where Coffer built ${entry.nonce}`);
  }
  if (tx.chainId !== entry.chainId) {
    differences.push(`chainId is ${tx.chainId} where Coffer built ${entry.chainId}`);
  }
  const gas = tx.gas ?? 0n;
  if (gas !== BigInt(entry.gas)) {
    differences.push(`gas is ${gas} where Coffer built ${entry.gas}`);
  }
  const maxFee = tx.maxFeePerGas ?? 0n;
  if (maxFee > BigInt(entry.maxFeePerGas)) {
    differences.push(
      `maxFeePerGas ${gwei(maxFee)} is above the ${gwei(BigInt(entry.maxFeePerGas))} built`,
    );
  }
  const baseFee = chain.baseFeePerGas ?? null;
  if (baseFee !== null && maxFee < baseFee) {
    differences.push(
      `maxFeePerGas ${gwei(maxFee)} is below the latest block's base fee of ${gwei(baseFee)}: the node would never mine it. ${
        BigInt(entry.maxFeePerGas) >= baseFee
          ? `Sign it with a higher max fee (Coffer built ${gwei(BigInt(entry.maxFeePerGas))})`
          : `Coffer built ${gwei(BigInt(entry.maxFeePerGas))}, below it too: abandon the batch and build it again`
      }`,
    );
  }
  const tip = tx.maxPriorityFeePerGas ?? 0n;
  if (tip > BigInt(entry.maxPriorityFeePerGas)) {
    differences.push(
      `maxPriorityFeePerGas ${gwei(tip)} is above the ${gwei(BigInt(entry.maxPriorityFeePerGas))} built`,
    );
  }
  if (tx.accessList && tx.accessList.length > 0) {
    differences.push('the transaction carries an access list Coffer did not build');
  }
  if (differences.length > 0) throw new PayoutFileError(differences);
  return { hash: keccak256(raw), raw };
}
