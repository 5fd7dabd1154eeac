import type { HDKey } from '@scure/bip32';
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  isAddress,
  type TransactionSerializableEIP1559,
} from 'viem';
import { ethereumAddressOf } from '../chains';

/**
 * Ethereum payouts (ETH and USDT-ERC20) as unsigned EIP-1559 transactions the operator
 * signs offline. They are paid from one address, the operator's payout address
 * `account/1/0` of the ETH account key: the change chain, so no customer is ever given it as
 * a deposit address. Coffer builds each transaction from the node's state (nonce, fees,
 * gas, chain id), the operator signs the file on an offline machine, and Coffer broadcasts
 * a signed transaction only after checking that it is exactly the one it built. The entry
 * is built in `ethereum-payout-build.ts`, checked in `ethereum-payout-check.ts` and signed
 * in `ethereum-payout-sign.ts`; this file holds the shapes and helpers the three share.
 */

export const PAYOUT_DERIVATION_PATH = "m/44'/60'/0'/1/0";

/** 21000: a plain ETH transfer to an address costs exactly this, nothing to estimate. */
export const ETH_TRANSFER_GAS = 21_000n;

/** Added to a token transfer's estimate, in percent: state can change between build and broadcast. */
export const TOKEN_GAS_MARGIN_PERCENT = 25n;

export type EthAssetId = 'ETH' | 'USDT-ERC20';

export type EthPayoutEntry = {
  payoutIds: string[];
  assetId: EthAssetId;
  /** The customer's destination (for people reading the file). */
  recipient: string;
  /** Smallest unit (wei or 10^-6 USDT), decimal string. */
  amount: string;
  from: string;
  derivationPath: string;
  to: string;
  value: string;
  data: Hex;
  nonce: number;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  chainId: number;
  /** The 0x02… unsigned EIP-1559 serialization. */
  unsignedSerialized: Hex;
  /** Filled in by a signer: the raw signed 0x02… hex. */
  signed?: string;
};

export type EthPayoutFile = {
  kind: 'coffer-ethereum-payouts';
  version: 1;
  batchId: string;
  entries: EthPayoutEntry[];
};

export type EthFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** The payout address: account/1/0 of the ETH account key, EIP-55. */
export function payoutAddressOf(account: HDKey): Address {
  const key = account.deriveChild(1).deriveChild(0).publicKey;
  if (!key) throw new Error('derivation produced no public key');
  return getAddress(ethereumAddressOf(key));
}

/** An address Coffer pays to or from: 0x and 40 hex digits, EIP-55 checksum if mixed case. */
export function addressOrThrow(label: string, value: string): Address {
  const trimmed = value.trim();
  if (!isAddress(trimmed)) {
    throw new Error(
      `${label} "${value}" is not an Ethereum address (0x and 40 hex digits, EIP-55 checksum if mixed case)`,
    );
  }
  return getAddress(trimmed);
}

export function transferData(recipient: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
}

/** The transaction the entry's own fields describe (not its `unsignedSerialized`). */
export function transactionOf(entry: EthPayoutEntry): TransactionSerializableEIP1559 {
  return {
    type: 'eip1559',
    chainId: entry.chainId,
    nonce: entry.nonce,
    to: getAddress(entry.to),
    value: BigInt(entry.value),
    data: entry.data,
    gas: BigInt(entry.gas),
    maxFeePerGas: BigInt(entry.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(entry.maxPriorityFeePerGas),
  };
}

/** A long hex shown by its ends, for messages. */
export function shorten(hex: string): string {
  return hex.length > 20 ? `${hex.slice(0, 10)}…${hex.slice(-6)}` : hex;
}
