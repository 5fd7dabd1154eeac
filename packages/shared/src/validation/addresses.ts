import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import { z } from 'zod';
import { assetById } from '../assets';

/**
 * Withdrawal and deposit address checks. The shapes and messages are ; on
 * top of them every address's checksum is verified, so a mistyped address is refused before
 * money is sent to it. The asset's network picks the rule (product.md S8): USDT-ERC20 takes
 * the Ethereum rule and USDT-TRC20 the Tron rule.
 *
 * Bitcoin follows the server's BTC_NETWORK (setBitcoinAddressNetwork, mainnet unless told):
 * a custodian paying out real coins refuses a test network address, and one running on
 * testnet or regtest refuses mainnet addresses. Bitcoin segwit addresses are limited to the kinds wallets
 * actually spend today (v0 P2WPKH/P2WSH, v1 Taproot with a 32-byte key); other witness
 * versions decode correctly but nothing secures coins sent to them yet.
 */

export const ADDRESS_MSG = {
  required: 'Address is required',
  bitcoinFormat: 'Invalid Bitcoin address format',
  bitcoinChecksum: 'Invalid Bitcoin address checksum. Check the address and try again.',
  bitcoinTestnet:
    'This is a Bitcoin test network address. Enter a Bitcoin mainnet address instead.',
  bitcoinUnsupportedKind:
    'This kind of Bitcoin address is not supported. Use an address starting with 1, 3, bc1q or bc1p.',
  ethereumFormat: 'Invalid Ethereum address format',
  ethereumChecksum: 'Invalid Ethereum address checksum. Check the address and try again.',
  tronFormat: 'Invalid Tron address format',
  tronChecksum: 'Invalid Tron address checksum. Check the address and try again.',
  usdtFormat: 'Invalid USDT address format (must be ERC-20 or TRC-20)',
  solanaFormat: 'Invalid Solana address format',
  unsupportedAsset: 'Unsupported cryptocurrency',
  unsupportedNetwork: 'Unsupported network',
} as const;

export type TAddressResult = { ok: true; address: string } | { ok: false; message: string };

/** The Bitcoin network addresses are checked for (the server's BTC_NETWORK). */
export type TBitcoinNetwork = 'mainnet' | 'testnet' | 'regtest';

let bitcoinNetwork: TBitcoinNetwork = 'mainnet';

/**
 * Sets the Bitcoin network every address check without an explicit one follows, once at
 * start-up (the server from BTC_NETWORK): the request schemas that check addresses are
 * module constants, so this is how they learn it.
 */
export function setBitcoinAddressNetwork(network: TBitcoinNetwork): void {
  bitcoinNetwork = network;
}

export function bitcoinAddressNetwork(): TBitcoinNetwork {
  return bitcoinNetwork;
}

/** The message for an address of another Bitcoin network than the one in use. */
export function bitcoinWrongNetworkMessage(network: TBitcoinNetwork): string {
  return network === 'mainnet'
    ? ADDRESS_MSG.bitcoinTestnet
    : `This is not a Bitcoin ${network} address. This service runs on Bitcoin ${network}.`;
}

const ok = (address: string): TAddressResult => ({ ok: true, address });
const fail = (message: string): TAddressResult => ({ ok: false, message });

const base58check = createBase58check(sha256);
const BASE58_CHARS = '1-9A-HJ-NP-Za-km-z';

/** base58check payload, or undefined when a character or the 4-byte checksum is wrong. */
function decodeBase58check(address: string): Uint8Array | undefined {
  try {
    return base58check.decode(address);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// Bitcoin

export type TSegwitDecoded =
  | { ok: true; version: number; program: Uint8Array }
  | { ok: false; reason: 'format' | 'checksum' };

const BECH32_DATA_CHARS = /^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/;

/**
 * Decodes a segwit address for one human-readable part ('bc', 'tb'), by BIP-173 and
 * BIP-350: one case only, at most 90 characters, witness version 0-16, program 2-40 bytes
 * (20 or 32 for version 0), bech32 for version 0 and bech32m for 1 and up. Any valid segwit
 * address passes; what Coffer pays out to is decided by validateBitcoinAddress.
 * `reason` tells a mistyped address (checksum) from one that is not an address at all.
 */
export function decodeSegwitAddress(address: string, hrp: string): TSegwitDecoded {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) {
    return { ok: false, reason: 'format' };
  }
  const separator = lower.lastIndexOf('1');
  if (lower.length > 90 || lower.slice(0, separator) !== hrp) {
    return { ok: false, reason: 'format' };
  }
  if (!BECH32_DATA_CHARS.test(lower.slice(separator + 1))) return { ok: false, reason: 'format' };

  const asBech32 = bech32.decodeUnsafe(lower);
  const decoded = asBech32 ?? bech32m.decodeUnsafe(lower);
  if (!decoded) return { ok: false, reason: 'checksum' };
  const [version, ...data] = decoded.words;
  if (version === undefined || version > 16) return { ok: false, reason: 'format' };
  // BIP-350: the checksum constant is bound to the version, so a v0 address under bech32m
  // (or v1+ under bech32) fails exactly as a wrong checksum does.
  if ((version === 0) !== Boolean(asBech32)) return { ok: false, reason: 'checksum' };

  const program = bech32.fromWordsUnsafe(data);
  if (!program || program.length < 2 || program.length > 40) {
    return { ok: false, reason: 'format' };
  }
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return { ok: false, reason: 'format' };
  }
  return { ok: true, version, program };
}

/** Per network: the segwit human-readable part and the base58 versions (P2PKH, P2SH). */
const BTC_NETWORK_FORMS: Readonly<
  Record<TBitcoinNetwork, { hrp: string; p2pkh: number; p2sh: number; base58: RegExp }>
> = {
  // §5's shape for legacy and P2SH addresses: 1 or 3, then base58, 26-35 characters in all.
  mainnet: {
    hrp: 'bc',
    p2pkh: 0x00,
    p2sh: 0x05,
    base58: new RegExp(`^[13][${BASE58_CHARS}]{25,34}$`),
  },
  // Testnet and regtest share their base58 versions (m/n and 2); regtest's segwit is bcrt1.
  testnet: {
    hrp: 'tb',
    p2pkh: 0x6f,
    p2sh: 0xc4,
    base58: new RegExp(`^[mn2][${BASE58_CHARS}]{25,34}$`),
  },
  regtest: {
    hrp: 'bcrt',
    p2pkh: 0x6f,
    p2sh: 0xc4,
    base58: new RegExp(`^[mn2][${BASE58_CHARS}]{25,34}$`),
  },
};

/**
 * The networks whose form an address has (by its prefix and version): none for something
 * that is no Bitcoin address; testnet and regtest share the base58 versions (m/n and 2).
 */
function bitcoinNetworksOfAddress(address: string): TBitcoinNetwork[] {
  const lower = address.toLowerCase();
  // bcrt1 first: it also starts with 'bc'.
  if (lower.startsWith('bcrt1')) return ['regtest'];
  if (lower.startsWith('bc1')) return ['mainnet'];
  if (lower.startsWith('tb1')) return ['testnet'];
  const payload = decodeBase58check(address);
  if (payload?.length !== 21) return [];
  const version = payload[0];
  const { mainnet, testnet } = BTC_NETWORK_FORMS;
  if (mainnet.base58.test(address) && (version === mainnet.p2pkh || version === mainnet.p2sh)) {
    return ['mainnet'];
  }
  if (testnet.base58.test(address) && (version === testnet.p2pkh || version === testnet.p2sh)) {
    return ['testnet', 'regtest'];
  }
  return [];
}

/**
 * A Bitcoin address of `network` (the one set at start-up unless given): base58check P2PKH
 * or P2SH (1…/3… on mainnet, m…/n…/2… on the test networks), or segwit (bc1, tb1, bcrt1)
 * v0 (bech32) or Taproot (bech32m). An all-capitals bech32 address is valid (BIP-173, QR
 * codes use it) and comes back lower-cased, the form wallets print. An address of another
 * network is refused saying so.
 */
export function validateBitcoinAddress(
  input: string,
  network: TBitcoinNetwork = bitcoinNetwork,
): TAddressResult {
  const address = input.trim();
  if (address === '') return fail(ADDRESS_MSG.required);
  const lower = address.toLowerCase();
  const forms = BTC_NETWORK_FORMS[network];
  const networks = bitcoinNetworksOfAddress(address);
  if (networks.length > 0 && !networks.includes(network)) {
    return fail(bitcoinWrongNetworkMessage(network));
  }

  if (lower.startsWith(`${forms.hrp}1`)) {
    const segwit = decodeSegwitAddress(address, forms.hrp);
    if (!segwit.ok) {
      return fail(
        segwit.reason === 'checksum' ? ADDRESS_MSG.bitcoinChecksum : ADDRESS_MSG.bitcoinFormat,
      );
    }
    const spendable =
      segwit.version === 0 || (segwit.version === 1 && segwit.program.length === 32);
    return spendable ? ok(lower) : fail(ADDRESS_MSG.bitcoinUnsupportedKind);
  }

  if (forms.base58.test(address)) {
    const payload = decodeBase58check(address);
    if (!payload) return fail(ADDRESS_MSG.bitcoinChecksum);
    const version = payload[0];
    const known = version === forms.p2pkh || version === forms.p2sh;
    return payload.length === 21 && known ? ok(address) : fail(ADDRESS_MSG.bitcoinFormat);
  }
  return fail(ADDRESS_MSG.bitcoinFormat);
}

// ---------------------------------------------------------------------------------------
// Ethereum and other EVM networks

const EVM_SHAPE = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 mixed-case form of a 0x + 40 hex address (any case in). */
export function toChecksumAddress(address: string): string {
  if (!EVM_SHAPE.test(address)) throw new RangeError(`Not an EVM address: ${address}`);
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(utf8ToBytes(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const char = hex.charAt(i);
    // Nibble i of the hash: high nibble of byte i/2 for even i, low nibble for odd i.
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

type TEvmMessages = { format: string; checksum: string };

/**
 * 0x and 40 hex digits. All-lower and all-upper carry no checksum and are accepted, as every
 * wallet does; mixed case is an EIP-55 checksum and must match, which catches most typos.
 */
function validateEvm(input: string, messages: TEvmMessages): TAddressResult {
  const address = input.trim();
  if (address === '') return fail(ADDRESS_MSG.required);
  if (!EVM_SHAPE.test(address)) return fail(messages.format);
  const letters = address.slice(2);
  const mixedCase = letters !== letters.toLowerCase() && letters !== letters.toUpperCase();
  if (mixedCase && toChecksumAddress(address) !== address) return fail(messages.checksum);
  return ok(address);
}

const ETHEREUM_MESSAGES: TEvmMessages = {
  format: ADDRESS_MSG.ethereumFormat,
  checksum: ADDRESS_MSG.ethereumChecksum,
};

export function validateEthereumAddress(input: string): TAddressResult {
  return validateEvm(input, ETHEREUM_MESSAGES);
}

function evmMessages(label: string): TEvmMessages {
  return {
    format: `Invalid ${label} address format`,
    checksum: `Invalid ${label} address checksum. Check the address and try again.`,
  };
}

// ---------------------------------------------------------------------------------------
// Tron

const TRON_VERSION = 0x41;
/** §5's "T followed by 33" characters, narrowed to the base58 alphabet Tron uses. */
const TRON_SHAPE = new RegExp(`^T[${BASE58_CHARS}]{33}$`);

/** A Tron address: base58check of 0x41 and a 20-byte account id, 34 characters from T. */
export function validateTronAddress(input: string): TAddressResult {
  const address = input.trim();
  if (address === '') return fail(ADDRESS_MSG.required);
  if (!TRON_SHAPE.test(address)) return fail(ADDRESS_MSG.tronFormat);
  const payload = decodeBase58check(address);
  if (!payload) return fail(ADDRESS_MSG.tronChecksum);
  return payload.length === 21 && payload[0] === TRON_VERSION
    ? ok(address)
    : fail(ADDRESS_MSG.tronFormat);
}

// ---------------------------------------------------------------------------------------
// Solana

const SOLANA_SHAPE = new RegExp(`^[${BASE58_CHARS}]{32,44}$`);

/**
 * A Solana address: base58 of a 32-byte key. Solana addresses carry no checksum, so this
 * is the most that can be checked without the network.
 */
export function validateSolanaAddress(input: string): TAddressResult {
  const address = input.trim();
  if (address === '') return fail(ADDRESS_MSG.required);
  if (!SOLANA_SHAPE.test(address)) return fail(ADDRESS_MSG.solanaFormat);
  try {
    return base58.decode(address).length === 32 ? ok(address) : fail(ADDRESS_MSG.solanaFormat);
  } catch {
    return fail(ADDRESS_MSG.solanaFormat);
  }
}

// ---------------------------------------------------------------------------------------
// By asset, symbol and network

/**
 * The withdrawal address check: the asset's network picks the rule (product.md S8).
 * Returns the address trimmed (bech32 lower-cased), or the message to show.
 */
export function validateAddress(assetId: string, input: string): TAddressResult {
  if (input.trim() === '') return fail(ADDRESS_MSG.required);
  const asset = assetById(assetId);
  if (!asset) return fail(ADDRESS_MSG.unsupportedAsset);
  switch (asset.network) {
    case 'bitcoin':
      return validateBitcoinAddress(input);
    case 'ethereum':
    case 'erc20':
      return validateEthereumAddress(input);
    case 'trc20':
      return validateTronAddress(input);
  }
}

/**
 * check by symbol, where a bare 'USDT' may be either network: '0x…' takes
 * the Ethereum rule and 'T…' the Tron rule, anything else gets the USDT message. Asset ids
 * ('USDT-ERC20', 'USDT-TRC20') are accepted too and take their network's rule.
 */
export function validateAddressForSymbol(symbol: string, input: string): TAddressResult {
  const address = input.trim();
  if (address === '') return fail(ADDRESS_MSG.required);
  if (symbol !== 'USDT') return validateAddress(symbol, address);
  if (/^0x/i.test(address)) {
    return validateEvm(address, { ...ETHEREUM_MESSAGES, format: ADDRESS_MSG.usdtFormat });
  }
  if (address.startsWith('T')) {
    const tron = validateTronAddress(address);
    return !tron.ok && tron.message === ADDRESS_MSG.tronFormat
      ? fail(ADDRESS_MSG.usdtFormat)
      : tron;
  }
  return fail(ADDRESS_MSG.usdtFormat);
}

/** Networks a deposit address may be on. */
export const ADDRESS_NETWORKS = [
  'bitcoin',
  'ethereum',
  'erc20',
  'trc20',
  'bep20',
  'solana',
  'polygon',
] as const;
export type TAddressNetwork = (typeof ADDRESS_NETWORKS)[number];

export const ZAddressNetwork = z.enum(ADDRESS_NETWORKS, { error: ADDRESS_MSG.unsupportedNetwork });

/**
 * The admin deposit-address check, by network. BEP-20 and Polygon are EVM chains and use
 * the Ethereum rule with their own name in the message.
 */
export function validateNetworkAddress(network: string, input: string): TAddressResult {
  if (input.trim() === '') return fail(ADDRESS_MSG.required);
  switch (network) {
    case 'bitcoin':
      return validateBitcoinAddress(input);
    case 'ethereum':
    case 'erc20':
      return validateEthereumAddress(input);
    case 'bep20':
      return validateEvm(input, evmMessages('BEP-20'));
    case 'polygon':
      return validateEvm(input, evmMessages('Polygon'));
    case 'trc20':
      return validateTronAddress(input);
    case 'solana':
      return validateSolanaAddress(input);
    default:
      return fail(ADDRESS_MSG.unsupportedNetwork);
  }
}

// ---------------------------------------------------------------------------------------
// zod helpers

/**
 * An address field for one known asset (the per-asset withdraw page): checks it and
 * outputs the normalized address.
 */
export function ZAssetAddress(assetId: string) {
  return z.string({ error: ADDRESS_MSG.required }).transform((input, ctx) => {
    const result = validateAddress(assetId, input);
    if (result.ok) return result.address;
    ctx.addIssue({ code: 'custom', message: result.message, input });
    return z.NEVER;
  });
}

/**
 * For an object schema with `assetId` and `address` (the withdrawal form):
 * `.superRefine(refineAssetAddress)` reports the address rule of the chosen asset's network
 * on `address`. It validates only; give the field `.trim()` so the output is trimmed too.
 */
export function refineAssetAddress(
  value: { assetId: string; address: string },
  ctx: z.RefinementCtx,
): void {
  const result = validateAddress(value.assetId, value.address);
  if (!result.ok) {
    ctx.addIssue({
      code: 'custom',
      message: result.message,
      path: ['address'],
      input: value.address,
    });
  }
}

/** The same for `network` and `address` (the admin deposit-address form). */
export function refineNetworkAddress(
  value: { network: string; address: string },
  ctx: z.RefinementCtx,
): void {
  const result = validateNetworkAddress(value.network, value.address);
  if (!result.ok) {
    ctx.addIssue({
      code: 'custom',
      message: result.message,
      path: ['address'],
      input: value.address,
    });
  }
}
