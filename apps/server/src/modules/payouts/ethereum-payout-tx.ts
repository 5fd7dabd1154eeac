import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  formatGwei,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddress,
  isHex,
  keccak256,
  type PublicClient,
  parseGwei,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { ethereumAddressOf } from '../chains';
import { PayoutFileError } from './payout-file-error';

/**
 * Ethereum payouts (ETH and USDT-ERC20) as unsigned EIP-1559 transactions the operator
 * signs offline. They are paid from one address, the operator's payout address
 * `account/1/0` of the ETH account key: the change chain, so no customer is ever given it as
 * a deposit address. Coffer builds each transaction from the node's state (nonce, fees,
 * gas, chain id), the operator signs the file on an offline machine, and Coffer broadcasts
 * a signed transaction only after checking that it is exactly the one it built.
 */

export const PAYOUT_DERIVATION_PATH = "m/44'/60'/0'/1/0";

/** 21000: a plain ETH transfer to an address costs exactly this, nothing to estimate. */
export const ETH_TRANSFER_GAS = 21_000n;

/** Added to a token transfer's estimate, in percent: state can change between build and broadcast. */
export const TOKEN_GAS_MARGIN_PERCENT = 25n;

export type EthAssetId = 'ETH' | 'USDT-ERC20';

export type EthPayoutEntry = {
  payoutIds: string[];
  assetId: EthAssetId;
  /** The customer's destination (for people reading the file). */
  recipient: string;
  /** Smallest unit (wei or 10^-6 USDT), decimal string. */
  amount: string;
  from: string;
  derivationPath: string;
  to: string;
  value: string;
  data: Hex;
  nonce: number;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  chainId: number;
  /** The 0x02… unsigned EIP-1559 serialization. */
  unsignedSerialized: Hex;
  /** Filled in by a signer: the raw signed 0x02… hex. */
  signed?: string;
};

export type EthPayoutFile = {
  kind: 'coffer-ethereum-payouts';
  version: 1;
  batchId: string;
  entries: EthPayoutEntry[];
};

export type EthFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** The payout address: account/1/0 of the ETH account key, EIP-55. */
export function payoutAddressOf(account: HDKey): Address {
  const key = account.deriveChild(1).deriveChild(0).publicKey;
  if (!key) throw new Error('derivation produced no public key');
  return getAddress(ethereumAddressOf(key));
}

/** An address Coffer pays to or from: 0x and 40 hex digits, EIP-55 checksum if mixed case. */
function addressOrThrow(label: string, value: string): Address {
  const trimmed = value.trim();
  if (!isAddress(trimmed)) {
    throw new Error(
      `${label} "${value}" is not an Ethereum address (0x and 40 hex digits, EIP-55 checksum if mixed case)`,
    );
  }
  return getAddress(trimmed);
}

function transferData(recipient: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
}

/** The transaction the entry's own fields describe (not its `unsignedSerialized`). */
function transactionOf(entry: EthPayoutEntry): TransactionSerializableEIP1559 {
  return {
    type: 'eip1559',
    chainId: entry.chainId,
    nonce: entry.nonce,
    to: getAddress(entry.to),
    value: BigInt(entry.value),
    data: entry.data,
    gas: BigInt(entry.gas),
    maxFeePerGas: BigInt(entry.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
  };
}

/**
 * One payout as one unsigned EIP-1559 transaction from the payout address: ETH is `to` and
 * `value`; USDT-ERC20 is the token's `transfer(recipient, amount)` sent to the contract
 * with no ETH.
 */
export function buildEthereumEntry(p: {
  payoutId: string;
  assetId: EthAssetId;
  recipient: string;
  amount: bigint;
  usdtContract: string;
  from: string;
  nonce: number;
  gas: bigint;
  fees: EthFees;
  chainId: number;
}): EthPayoutEntry {
  const recipient = addressOrThrow('The recipient', p.recipient);
  const from = addressOrThrow('The payout address', p.from);
  if (p.amount <= 0n) throw new RangeError(`A payout amount is above zero, got ${p.amount}`);
  if (!Number.isSafeInteger(p.nonce) || p.nonce < 0) {
    throw new RangeError(`A nonce is a whole number from 0, got ${p.nonce}`);
  }
  if (p.gas <= 0n) throw new RangeError(`Gas is above zero, got ${p.gas}`);
  if (p.fees.maxPriorityFeePerGas > p.fees.maxFeePerGas) {
    throw new RangeError('maxPriorityFeePerGas is above maxFeePerGas');
  }
  const token = p.assetId === 'USDT-ERC20';
  const to = token ? addressOrThrow('USDT_ERC20_CONTRACT', p.usdtContract) : recipient;
  const value = token ? 0n : p.amount;
  const data: Hex = token ? transferData(recipient, p.amount) : '0x';
  const tx: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId: p.chainId,
    nonce: p.nonce,
    to,
    value,
    data,
    gas: p.gas,
    maxFeePerGas: p.fees.maxFeePerGas,
    maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas,
  };
  return {
    payoutIds: [p.payoutId],
    assetId: p.assetId,
    recipient,
    amount: p.amount.toString(),
    from,
    derivationPath: PAYOUT_DERIVATION_PATH,
    to,
    value: value.toString(),
    data,
    nonce: p.nonce,
    gas: p.gas.toString(),
    maxFeePerGas: p.fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas.toString(),
    chainId: p.chainId,
    unsignedSerialized: serializeTransaction(tx),
  };
}

/**
 * The fees a payout offers: the node's suggested tip, and twice the latest block's base fee
 * plus that tip as the ceiling (room for the base fee to double while the file is signed).
 * Throws when that ceiling is above `max_fee_per_gas_eth`: Coffer does not build payouts
 * that would pay more than the operator allowed, it waits for cheaper blocks.
 */
export async function readEthereumFees(client: PublicClient, capGwei: number): Promise<EthFees> {
  if (!Number.isFinite(capGwei) || capGwei <= 0) {
    throw new RangeError(`max_fee_per_gas_eth is a number of gwei above zero, got ${capGwei}`);
  }
  const cap = parseGwei(capGwei.toFixed(9));
  const [tipHex, block] = await Promise.all([
    client.request({ method: 'eth_maxPriorityFeePerGas' }),
    client.getBlock({ blockTag: 'latest' }),
  ]);
  const maxPriorityFeePerGas = hexToBigInt(tipHex);
  if (block.baseFeePerGas === null) {
    throw new Error('The node gives no base fee (a chain before EIP-1559): no payout can be built');
  }
  const maxFeePerGas = 2n * block.baseFeePerGas + maxPriorityFeePerGas;
  if (maxFeePerGas > cap) {
    throw new Error(
      `The network's fee is ${formatGwei(maxFeePerGas)} gwei per gas (twice the base fee ${formatGwei(block.baseFeePerGas)} plus the tip ${formatGwei(maxPriorityFeePerGas)}), above the cap max_fee_per_gas_eth of ${formatGwei(cap)} gwei`,
    );
  }
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * Gas for one payout: 21000 for ETH; a token transfer is estimated by the node as sent
 * from the payout address (which fails while that address lacks the tokens), plus a margin.
 */
export async function estimatePayoutGas(
  client: PublicClient,
  p: { from: string; assetId: EthAssetId; recipient: string; amount: bigint; usdtContract: string },
): Promise<bigint> {
  const recipient = addressOrThrow('The recipient', p.recipient);
  if (p.assetId === 'ETH') return ETH_TRANSFER_GAS;
  const estimate = await client.estimateGas({
    account: addressOrThrow('The payout address', p.from),
    to: addressOrThrow('USDT_ERC20_CONTRACT', p.usdtContract),
    data: transferData(recipient, p.amount),
    value: 0n,
  });
  return estimate + (estimate * TOKEN_GAS_MARGIN_PERCENT + 99n) / 100n;
}

/** True when the payout address has a mined transaction with this nonce (latest count above it). */
export async function isNonceUsed(
  client: PublicClient,
  from: string,
  nonce: number,
): Promise<boolean> {
  const count = await client.getTransactionCount({
    address: addressOrThrow('The payout address', from),
    blockTag: 'latest',
  });
  return count > nonce;
}

// ---------------------------------------------------------------------------------------
// Signed submissions

const SIGNED_SHAPE = /^(0x)?02([0-9a-fA-F]{2})+$/;

function shorten(hex: string): string {
  return hex.length > 20 ? `${hex.slice(0, 10)}…${hex.slice(-6)}` : hex;
}

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
 * than built (a signer may lower them, never raise them). Throws PayoutFileError listing
 * every difference; returns the hash and raw bytes to broadcast.
 */
export async function checkSignedEthereum(
  entry: EthPayoutEntry,
  signed: Hex,
  payoutAddress: string,
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

// ---------------------------------------------------------------------------------------
// Offline signer (the sign-payouts command and tests; never the server)

/**
 * What an entry must hold for its own fields to be the payout it names: the signer reads
 * the fields, not only the serialization, so a file edited anywhere is refused.
 */
function entryProblems(entry: EthPayoutEntry, signerAddress: Address): string[] {
  const problems: string[] = [];
  let tx: TransactionSerializableEIP1559;
  try {
    tx = transactionOf(entry);
  } catch {
    return ['its fields are not a transaction (an address, number or hex is malformed)'];
  }
  if (serializeTransaction(tx) !== entry.unsignedSerialized.toLowerCase()) {
    problems.push('unsignedSerialized is not the transaction its fields describe');
  }
  if (!isAddress(entry.from) || getAddress(entry.from) !== signerAddress) {
    problems.push(`from is ${entry.from}, but ${entry.derivationPath} is ${signerAddress}`);
  }
  if (!isAddress(entry.recipient)) {
    problems.push(`recipient ${entry.recipient} is not an Ethereum address`);
    return problems;
  }
  const recipient = getAddress(entry.recipient);
  const amount = BigInt(entry.amount);
  if (entry.assetId === 'ETH') {
    if (tx.to !== recipient) problems.push(`to is ${tx.to} but the recipient is ${recipient}`);
    if (tx.value !== amount) problems.push(`value is ${tx.value} but the amount is ${amount}`);
    if (entry.data !== '0x') problems.push('an ETH payout carries calldata');
  } else if (entry.assetId === 'USDT-ERC20') {
    if (tx.value !== 0n) problems.push(`a token payout sends ${tx.value} wei of ETH too`);
    if (entry.data.toLowerCase() !== transferData(recipient, amount)) {
      problems.push(`data is not the transfer of ${amount} to the recipient ${recipient}`);
    }
  } else {
    problems.push(`assetId ${String(entry.assetId)} is not ETH or USDT-ERC20`);
  }
  return problems;
}

/**
 * Signs every entry of a payout file with the key at its derivation path of `mnemonic`.
 * Each transaction is rebuilt from the entry's fields and must equal `unsignedSerialized`
 * and the payout it names; anything else refuses the whole file (PayoutFileError), and
 * nothing is signed. Returns a new file with `signed` filled in.
 */
export function signEthereumFile(file: EthPayoutFile, mnemonic: string): EthPayoutFile {
  if (file.kind !== 'coffer-ethereum-payouts' || file.version !== 1) {
    throw new PayoutFileError(['The file is not a Coffer Ethereum payout file (version 1)']);
  }
  const words = mnemonic.trim().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist)) {
    throw new Error('The recovery phrase is not a valid BIP-39 English mnemonic');
  }
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(words));
  const keys = new Map<string, { key: Uint8Array; address: Address }>();
  const keyAt = (path: string) => {
    let found = keys.get(path);
    if (!found) {
      const node = root.derive(path);
      if (!node.privateKey || !node.publicKey) throw new Error(`${path} derives no key`);
      found = { key: node.privateKey, address: getAddress(ethereumAddressOf(node.publicKey)) };
      keys.set(path, found);
    }
    return found;
  };
  const problems: string[] = [];
  const signedEntries = file.entries.map((entry, i) => {
    if (entry.derivationPath !== PAYOUT_DERIVATION_PATH) {
      problems.push(
        `entry ${i + 1}: derivationPath is ${entry.derivationPath}, not the payout path ${PAYOUT_DERIVATION_PATH}`,
      );
      return entry;
    }
    const { key, address } = keyAt(entry.derivationPath);
    const entryIssues = entryProblems(entry, address);
    if (entryIssues.length > 0) {
      problems.push(...entryIssues.map((p) => `entry ${i + 1}: ${p}`));
      return entry;
    }
    const tx = transactionOf(entry);
    const digest = keccak256(serializeTransaction(tx), 'bytes');
    const sig = secp256k1.Signature.fromBytes(
      secp256k1.sign(digest, key, { prehash: false, format: 'recovered' }),
      'recovered',
    );
    // Ethereum's yParity is 0 or 1; 2 and 3 (r above the group order) never occur in practice.
    const recovery = sig.recovery;
    if (recovery !== 0 && recovery !== 1)
      throw new Error('signature without a usable recovery bit');
    const signed = serializeTransaction(tx, {
      r: `0x${sig.r.toString(16).padStart(64, '0')}`,
      s: `0x${sig.s.toString(16).padStart(64, '0')}`,
      yParity: recovery,
    });
    return { ...entry, signed };
  });
  keys.forEach(({ key }) => {
    key.fill(0);
  });
  if (problems.length > 0) throw new PayoutFileError(problems);
  return { ...file, entries: signedEntries };
}
