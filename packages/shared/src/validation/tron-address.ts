import {
  ADDRESS_MSG,
  BASE58_CHARS,
  decodeBase58check,
  fail,
  ok,
  type TAddressResult,
} from './address-result';

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
