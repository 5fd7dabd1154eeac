import { keccak_256 } from '@noble/hashes/sha3.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { ADDRESS_MSG, fail, ok, type TAddressResult } from './address-result';

/** Ethereum and other EVM networks' addresses. */

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

export type TEvmMessages = { format: string; checksum: string };

/**
 * 0x and 40 hex digits. All-lower and all-upper carry no checksum and are accepted, as every
 * wallet does; mixed case is an EIP-55 checksum and must match, which catches most typos.
 */
export function validateEvm(input: string, messages: TEvmMessages): TAddressResult {
  const address = input.trim();
  if (address === '') return fail(ADDRESS_MSG.required);
  if (!EVM_SHAPE.test(address)) return fail(messages.format);
  const letters = address.slice(2);
  const mixedCase = letters !== letters.toLowerCase() && letters !== letters.toUpperCase();
  if (mixedCase && toChecksumAddress(address) !== address) return fail(messages.checksum);
  return ok(address);
}

export const ETHEREUM_MESSAGES: TEvmMessages = {
  format: ADDRESS_MSG.ethereumFormat,
  checksum: ADDRESS_MSG.ethereumChecksum,
};

export function validateEthereumAddress(input: string): TAddressResult {
  return validateEvm(input, ETHEREUM_MESSAGES);
}

export function evmMessages(label: string): TEvmMessages {
  return {
    format: `Invalid ${label} address format`,
    checksum: `Invalid ${label} address checksum. Check the address and try again.`,
  };
}
