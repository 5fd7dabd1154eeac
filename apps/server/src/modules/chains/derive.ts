import { decodeSegwitAddress, toChecksumAddress } from '@coffer/shared';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { bech32, createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { Address, NETWORK, OutScript, TEST_NETWORK } from '@scure/btc-signer';
import { StartupError } from '@server/lib/startup-error';
import type { ChainName } from './chain-adapter';

/**
 * Deposit addresses from the operator's account-level extended public keys
 * (docs/decisions/0021). No private key is ever here: a private key given by mistake stops
 * start-up. Addresses are `account/0/i` (the receive chain).
 */

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'regtest';

/** The bech32 human-readable part of each network's segwit addresses. */
export const BITCOIN_HRP: Readonly<Record<BitcoinNetwork, string>> = {
  mainnet: 'bc',
  testnet: 'tb',
  regtest: 'bcrt',
};

const base58check = createBase58check(sha256);

/** The serialisations of an account public key Coffer accepts, by version bytes. */
const PUBLIC_VERSIONS: Readonly<
  Record<number, { prefix: string; network: 'mainnet' | 'test'; bitcoinOnly: boolean }>
> = {
  76067358: { prefix: 'xpub', network: 'mainnet', bitcoinOnly: false },
  78792518: { prefix: 'zpub', network: 'mainnet', bitcoinOnly: true },
  70617039: { prefix: 'tpub', network: 'test', bitcoinOnly: true },
  73342198: { prefix: 'vpub', network: 'test', bitcoinOnly: true },
};
/** Public keys meant for other address kinds (BIP-49 nested segwit): refused by name. */
const OTHER_PUBLIC_VERSIONS: Readonly<Record<number, string>> = {
  77429938: 'ypub',
  71979618: 'upub',
};
/** Private-key serialisations: recognised only to refuse them without echoing them. */
const PRIVATE_VERSIONS = new Set([
  0x0488ade4, 0x04b2430c, 0x04358394, 0x045f18bc, 0x049d7878, 0x044a4e28,
]);

/** The account level: m / purpose' / coin' / account'. */
const ACCOUNT_DEPTH = 3;

const BIP32_XPUB_VERSIONS = { public: 0x0488b21e, private: 0x0488ade4 };

export type AccountKey = {
  /** The account node, public only. */
  account: HDKey;
  /** The network the serialisation's version bytes name (for a mismatch warning only). */
  network: 'mainnet' | 'test';
  /** xpub, zpub, tpub or vpub. */
  prefix: string;
};

/**
 * Parses an account-level extended public key. `kind` 'bitcoin' accepts xpub, zpub, tpub
 * and vpub (decision 0021: the key data decides the addresses, the version bytes only name
 * the network); 'plain' accepts xpub only. Throws a StartupError naming `variable`; the
 * value is never echoed (it may be a private key pasted by mistake).
 */
export function parseAccountKey(
  variable: string,
  value: string,
  kind: 'bitcoin' | 'plain',
): AccountKey {
  const accepted = kind === 'bitcoin' ? 'an xpub, zpub, tpub or vpub' : 'an xpub';
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(value.trim());
  } catch {
    throw new StartupError(
      `${variable} is not an extended public key (${accepted}): it does not decode or its checksum is wrong`,
    );
  }
  if (bytes.length !== 78) {
    throw new StartupError(`${variable} is not an extended public key (${accepted})`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  if (PRIVATE_VERSIONS.has(version)) {
    throw new StartupError(
      `${variable} is a private key: give the account's extended public key (${accepted}); a private key never belongs on the server`,
    );
  }
  const other = OTHER_PUBLIC_VERSIONS[version];
  if (other) {
    throw new StartupError(
      `${variable} is a ${other} (nested segwit); give the BIP-84 account key as ${accepted}`,
    );
  }
  const known = PUBLIC_VERSIONS[version];
  if (!known || (kind === 'plain' && known.bitcoinOnly)) {
    throw new StartupError(
      `${variable} is not an extended public key of the accepted kind (${accepted})`,
    );
  }
  const depth = bytes[4] ?? 0;
  if (depth !== ACCOUNT_DEPTH) {
    throw new StartupError(
      `${variable} must be the account-level key (depth 3, e.g. m/44'/60'/0'), but this key is at depth ${depth}`,
    );
  }
  let account: HDKey;
  try {
    account = new HDKey({
      versions: BIP32_XPUB_VERSIONS,
      depth,
      parentFingerprint: view.getUint32(5),
      index: view.getUint32(9),
      chainCode: bytes.slice(13, 45),
      publicKey: bytes.slice(45, 78),
    });
  } catch {
    throw new StartupError(`${variable} does not hold a valid public key`);
  }
  return { account, network: known.network, prefix: known.prefix };
}

/** A derived deposit address and the form the chain's watcher matches payments by. */
export type DerivedAddress = {
  chain: ChainName;
  index: number;
  /** As customers see it: bc1…/tb1…/bcrt1…, EIP-55 0x…, or TRON T…. */
  address: string;
  /**
   * The adapter's match key (ChainAdapter.matchKeyOf): Bitcoin the output script (hex),
   * Ethereum the lower-case address, TRON the 21-byte hex form (41…).
   */
  matchKey: string;
  /** The compressed public key (hex) at account/0/index. */
  publicKey: string;
};

// Deriving account/0 once per account key: every address is then one public derivation.
const receiveNodes = new WeakMap<HDKey, HDKey>();

function receiveNode(account: HDKey): HDKey {
  let node = receiveNodes.get(account);
  if (!node) {
    node = account.deriveChild(0);
    receiveNodes.set(account, node);
  }
  return node;
}

/** The compressed public key at account/0/index. */
export function publicKeyAt(account: HDKey, index: number): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) {
    throw new RangeError(`A derivation index is a whole number from 0 to 2^31 - 1, got ${index}`);
  }
  const key = receiveNode(account).deriveChild(index).publicKey;
  if (!key) throw new Error('derivation produced no public key');
  return key;
}

/**
 * The compressed public key at account/chain/index: chain 0 receives deposits, chain 1
 * (BIP-44's internal chain) receives the change of payout batches.
 */
export function publicKeyAtChain(account: HDKey, chain: 0 | 1, index: number): Uint8Array {
  if (chain === 0) return publicKeyAt(account, index);
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) {
    throw new RangeError(`A derivation index is a whole number from 0 to 2^31 - 1, got ${index}`);
  }
  const key = account.deriveChild(1).deriveChild(index).publicKey;
  if (!key) throw new Error('derivation produced no public key');
  return key;
}

/** P2WPKH: the witness program is HASH160 of the compressed key. */
export function bitcoinP2wpkh(
  publicKey: Uint8Array,
  network: BitcoinNetwork,
): { address: string; script: string } {
  const program = ripemd160(sha256(publicKey));
  const address = bech32.encode(BITCOIN_HRP[network], [0, ...bech32.toWords(program)]);
  return { address, script: `0014${bytesToHex(program)}` };
}

/** The last 20 bytes of keccak-256 of the uncompressed key without its 0x04 prefix. */
function accountIdOf(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

export function ethereumAddressOf(publicKey: Uint8Array): string {
  return toChecksumAddress(`0x${bytesToHex(accountIdOf(publicKey))}`);
}

/** TRON: base58check of 0x41 and the same 20-byte account id as Ethereum's. */
export function tronAddressOf(publicKey: Uint8Array): { address: string; hex: string } {
  const payload = new Uint8Array(21);
  payload[0] = 0x41;
  payload.set(accountIdOf(publicKey), 1);
  return { address: base58check.encode(payload), hex: bytesToHex(payload) };
}

/**
 * What deriving needs of a chain's configuration (a `ChainConfig` is one): its account key,
 * and for Bitcoin the network the address is written for.
 */
export type DerivationSource =
  | { chain: 'bitcoin'; account: HDKey; network: BitcoinNetwork }
  | { chain: 'ethereum' | 'tron'; account: HDKey };

/** The address at `index` on a configured chain. */
export function derive(config: DerivationSource, index: number): DerivedAddress {
  const key = publicKeyAt(config.account, index);
  const publicKey = bytesToHex(key);
  switch (config.chain) {
    case 'bitcoin': {
      const { address, script } = bitcoinP2wpkh(key, config.network);
      return { chain: 'bitcoin', index, address, matchKey: script, publicKey };
    }
    case 'ethereum': {
      const address = ethereumAddressOf(key);
      return { chain: 'ethereum', index, address, matchKey: address.toLowerCase(), publicKey };
    }
    case 'tron': {
      const { address, hex } = tronAddressOf(key);
      return { chain: 'tron', index, address, matchKey: hex, publicKey };
    }
  }
}

// ---------------------------------------------------------------------------------------
// Match keys of any address (admin-added ones included), for the chain adapters

const BASE58_VERSIONS: Readonly<Record<'mainnet' | 'test', { p2pkh: number; p2sh: number }>> = {
  mainnet: { p2pkh: 0x00, p2sh: 0x05 },
  test: { p2pkh: 0x6f, p2sh: 0xc4 },
};

/**
 * The output script (hex) an address on `network` pays to, or null when it is not one of
 * that network's addresses: segwit v0-v16 and base58 P2PKH/P2SH. Outputs are matched by
 * script, so any Bitcoin-family node's own address format does not matter.
 */
export function bitcoinScriptOf(address: string, network: BitcoinNetwork): string | null {
  const trimmed = address.trim();
  const segwit = decodeSegwitAddress(trimmed, BITCOIN_HRP[network]);
  if (segwit.ok) {
    const opVersion = segwit.version === 0 ? 0x00 : 0x50 + segwit.version;
    return (
      opVersion.toString(16).padStart(2, '0') +
      segwit.program.length.toString(16).padStart(2, '0') +
      bytesToHex(segwit.program)
    );
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(trimmed);
  } catch {
    return null;
  }
  if (payload.length !== 21) return null;
  const versions = BASE58_VERSIONS[network === 'mainnet' ? 'mainnet' : 'test'];
  const hash = bytesToHex(payload.subarray(1));
  if (payload[0] === versions.p2pkh) return `76a914${hash}88ac`;
  if (payload[0] === versions.p2sh) return `a914${hash}87`;
  return null;
}

/** The address an output script pays on `network` (segwit or base58), or null for others. */
export function bitcoinAddressOfScript(script: string, network: BitcoinNetwork): string | null {
  const params =
    network === 'mainnet'
      ? NETWORK
      : { ...TEST_NETWORK, ...(network === 'regtest' ? { bech32: 'bcrt' } : {}) };
  try {
    return Address(params).encode(OutScript.decode(hexToBytes(script)));
  } catch {
    return null;
  }
}

/** The lower-case 0x address, or null when `address` is not 0x and 40 hex digits. */
export function ethereumMatchKeyOf(address: string): string | null {
  const trimmed = address.trim();
  return /^0x[0-9a-fA-F]{40}$/.test(trimmed) ? trimmed.toLowerCase() : null;
}

/** The 21-byte hex form (41…) of a TRON address (T… base58check or 41… hex), else null. */
export function tronMatchKeyOf(address: string): string | null {
  const trimmed = address.trim();
  if (/^41[0-9a-fA-F]{40}$/.test(trimmed)) return trimmed.toLowerCase();
  try {
    const payload = base58check.decode(trimmed);
    return payload.length === 21 && payload[0] === 0x41 ? bytesToHex(payload) : null;
  } catch {
    return null;
  }
}

/** The base58 (T…) form of a TRON address given as 21-byte hex (41…). */
export function tronAddressFromHex(hex: string): string {
  const bytes = hexToBytes(hex.replace(/^0x/i, ''));
  if (bytes.length !== 21 || bytes[0] !== 0x41) throw new RangeError(`Not a TRON address: ${hex}`);
  return base58check.encode(bytes);
}
