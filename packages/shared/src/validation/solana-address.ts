import { base58 } from '@scure/base';
import { ADDRESS_MSG, BASE58_CHARS, fail, ok, type TAddressResult } from './address-result';

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
