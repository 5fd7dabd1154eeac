import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';

/**
 * What every address check answers (the address in the form its rule keeps, or the message
 * to show), the messages themselves, and the base58check decoding Bitcoin and Tron share.
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

export const ok = (address: string): TAddressResult => ({ ok: true, address });
export const fail = (message: string): TAddressResult => ({ ok: false, message });

const base58check = createBase58check(sha256);
export const BASE58_CHARS = '1-9A-HJ-NP-Za-km-z';

/** base58check payload, or undefined when a character or the 4-byte checksum is wrong. */
export function decodeBase58check(address: string): Uint8Array | undefined {
  try {
    return base58check.decode(address);
  } catch {
    return undefined;
  }
}
