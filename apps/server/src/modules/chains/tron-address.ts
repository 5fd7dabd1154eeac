import { createHash } from 'node:crypto';
import { createBase58check, hex } from '@scure/base';

/** TRON's address prefix byte: every account and contract address is 0x41 + 20 bytes. */
const TRON_PREFIX = 0x41;

const base58check = createBase58check(
  (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
);

/**
 * The 21-byte hex form ('41' + 20 bytes, lower case) of a TRON address given as base58check
 * (`T…`) or as 42 hex digits starting 41. Null when it is neither or its checksum is wrong.
 */
export function tronHexAddress(address: string): string | null {
  const s = address.trim();
  if (/^41[0-9a-fA-F]{40}$/.test(s)) return s.toLowerCase();
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(s)) return null;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(s);
  } catch {
    return null;
  }
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) return null;
  return hex.encode(bytes);
}

/** The base58check form (`T…`) of a 21-byte hex TRON address. */
export function tronBase58Address(hexAddress: string): string {
  const key = tronHexAddress(hexAddress);
  if (!key) throw new Error(`Not a TRON address: ${hexAddress}`);
  return base58check.encode(hex.decode(key));
}

/**
 * An address in an event's result: TronGrid writes them as 0x + 20 bytes (the EVM form
 * without TRON's prefix byte); other TronGrid-compatible APIs as 41-hex or base58check.
 */
export function eventAddress(address: string): string | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return `41${address.slice(2).toLowerCase()}`;
  return tronHexAddress(address);
}

/** A log's contract address: the node writes 20 bytes of hex without TRON's 41 prefix. */
export function logAddress(address: unknown): string | null {
  if (typeof address !== 'string') return null;
  if (/^[0-9a-fA-F]{40}$/.test(address)) return `41${address.toLowerCase()}`;
  return tronHexAddress(address);
}
