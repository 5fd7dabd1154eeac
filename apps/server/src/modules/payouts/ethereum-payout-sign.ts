import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import {
  type Address,
  getAddress,
  isAddress,
  keccak256,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { ethereumAddressOf } from '../chains';
import {
  type EthPayoutEntry,
  type EthPayoutFile,
  PAYOUT_DERIVATION_PATH,
  transactionOf,
  transferData,
} from './ethereum-payout-tx';
import { PayoutFileError } from './payout-file-error';

/** The offline signer of Ethereum payout files (the sign-payouts command and tests; never the server). */

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
