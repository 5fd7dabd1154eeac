import { bech32, bech32m } from '@scure/base';
import {
  ADDRESS_MSG,
  BASE58_CHARS,
  decodeBase58check,
  fail,
  ok,
  type TAddressResult,
} from './address-result';

/**
 * Bitcoin addresses. Bitcoin follows the server's BTC_NETWORK (setBitcoinAddressNetwork,
 * mainnet unless told): a custodian paying out real coins refuses a test network address,
 * and one running on testnet or regtest refuses mainnet addresses. Segwit addresses are
 * limited to the kinds wallets actually spend today (v0 P2WPKH/P2WSH, v1 Taproot with a
 * 32-byte key); other witness versions decode correctly but nothing secures coins sent to
 * them yet.
 */

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
