import { z } from 'zod';
import { assetById } from '../assets';
import { ADDRESS_MSG, fail, type TAddressResult } from './address-result';
import { validateBitcoinAddress } from './bitcoin-address';
import {
  ETHEREUM_MESSAGES,
  evmMessages,
  validateEthereumAddress,
  validateEvm,
} from './evm-address';
import { validateSolanaAddress } from './solana-address';
import { validateTronAddress } from './tron-address';

/**
 * Withdrawal and deposit address checks. The shapes and messages are ; on
 * top of them every address's checksum is verified, so a mistyped address is refused before
 * money is sent to it. The asset's network picks the rule (product.md S8): USDT-ERC20 takes
 * the Ethereum rule and USDT-TRC20 the Tron rule. Each chain's rule is in its own file
 * (bitcoin-address.ts, evm-address.ts, tron-address.ts, solana-address.ts); this one picks
 * among them and gives the zod helpers.
 */

export { ADDRESS_MSG, type TAddressResult } from './address-result';
export {
  bitcoinAddressNetwork,
  bitcoinWrongNetworkMessage,
  decodeSegwitAddress,
  setBitcoinAddressNetwork,
  type TBitcoinNetwork,
  type TSegwitDecoded,
  validateBitcoinAddress,
} from './bitcoin-address';
export { toChecksumAddress, validateEthereumAddress } from './evm-address';
export { validateSolanaAddress } from './solana-address';
export { validateTronAddress } from './tron-address';

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
