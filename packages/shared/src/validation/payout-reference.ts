import { assetById } from '../assets';

/**
 * References that prove a payout left, and chain transaction hashes wherever one is stored
 * (a deposit's, a withdrawal's). A hash is normalised per network before it is compared or
 * kept, so one chain transaction is one value: EVM chains lower-case with `0x`, Bitcoin and
 * TRON lower-case hex without a prefix (as their explorers and nodes write them).
 */
export const REFERENCE_MSG = {
  evmHash: 'Enter the transaction hash: 0x followed by 64 hexadecimal characters.',
  hexHash: 'Enter the transaction hash: 64 hexadecimal characters.',
  unknownNetwork: 'This asset has no chain to check a transaction hash against.',
  bankReference:
    'Enter the bank reference of the payout: 6 to 35 letters, digits, spaces, hyphens or slashes, with at least one digit.',
} as const;

export type TReferenceResult = { ok: true; value: string } | { ok: false; message: string };

const HEX64 = /^(?:0x)?([0-9a-f]{64})$/;

/** Which form a network's transaction hashes take. */
function hashForm(network: string): 'evm' | 'hex' | null {
  if (network === 'ethereum' || network === 'erc20') return 'evm';
  if (network === 'bitcoin' || network === 'trc20') return 'hex';
  return null;
}

/**
 * A chain transaction hash of an asset's network, normalised: `0x…` lower-case for EVM,
 * bare lower-case hex for Bitcoin and TRON. Either form is accepted as input, in any case.
 */
export function normalizeTxHash(assetId: string, hash: string): TReferenceResult {
  const asset = assetById(assetId);
  const form = asset ? hashForm(asset.network) : null;
  if (!form) return { ok: false, message: REFERENCE_MSG.unknownNetwork };
  const match = HEX64.exec(hash.trim().toLowerCase());
  const hex = match?.[1];
  if (!hex) {
    return { ok: false, message: form === 'evm' ? REFERENCE_MSG.evmHash : REFERENCE_MSG.hexHash };
  }
  return { ok: true, value: form === 'evm' ? `0x${hex}` : hex };
}

const BANK_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9 /-]{4,33}[A-Za-z0-9]$/;

/** A bank's payment reference: what staff copy from the bank's confirmation. */
export function normalizeBankReference(reference: string): TReferenceResult {
  const value = reference.trim().replace(/\s+/g, ' ');
  if (!BANK_REFERENCE.test(value) || !/\d/.test(value)) {
    return { ok: false, message: REFERENCE_MSG.bankReference };
  }
  return { ok: true, value };
}
