import {
  formatGwei,
  type Hex,
  hexToBigInt,
  type PublicClient,
  parseGwei,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import {
  addressOrThrow,
  ETH_TRANSFER_GAS,
  type EthAssetId,
  type EthFees,
  type EthPayoutEntry,
  PAYOUT_DERIVATION_PATH,
  TOKEN_GAS_MARGIN_PERCENT,
  transferData,
} from './ethereum-payout-tx';

/** Building an Ethereum payout entry from the node's state: fees, gas, nonces. */

/**
 * One payout as one unsigned EIP-1559 transaction from the payout address: ETH is `to` and
 * `value`; USDT-ERC20 is the token's `transfer(recipient, amount)` sent to the contract
 * with no ETH.
 */
export function buildEthereumEntry(p: {
  payoutId: string;
  assetId: EthAssetId;
  recipient: string;
  amount: bigint;
  usdtContract: string;
  from: string;
  nonce: number;
  gas: bigint;
  fees: EthFees;
  chainId: number;
}): EthPayoutEntry {
  const recipient = addressOrThrow('The recipient', p.recipient);
  const from = addressOrThrow('The payout address', p.from);
  if (p.amount <= 0n) throw new RangeError(`A payout amount is above zero, got ${p.amount}`);
  if (!Number.isSafeInteger(p.nonce) || p.nonce < 0) {
    throw new RangeError(`A nonce is a whole number from 0, got ${p.nonce}`);
  }
  if (p.gas <= 0n) throw new RangeError(`Gas is above zero, got ${p.gas}`);
  if (p.fees.maxPriorityFeePerGas > p.fees.maxFeePerGas) {
    throw new RangeError('maxPriorityFeePerGas is above maxFeePerGas');
  }
  const token = p.assetId === 'USDT-ERC20';
  const to = token ? addressOrThrow('USDT_ERC20_CONTRACT', p.usdtContract) : recipient;
  const value = token ? 0n : p.amount;
  const data: Hex = token ? transferData(recipient, p.amount) : '0x';
  const tx: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId: p.chainId,
    nonce: p.nonce,
    to,
    value,
    data,
    gas: p.gas,
    maxFeePerGas: p.fees.maxFeePerGas,
    maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas,
  };
  return {
    payoutIds: [p.payoutId],
    assetId: p.assetId,
    recipient,
    amount: p.amount.toString(),
    from,
    derivationPath: PAYOUT_DERIVATION_PATH,
    to,
    value: value.toString(),
    data,
    nonce: p.nonce,
    gas: p.gas.toString(),
    maxFeePerGas: p.fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: p.fees.maxPriorityFeePerGas.toString(),
    chainId: p.chainId,
    unsignedSerialized: serializeTransaction(tx),
  };
}

/**
 * The fees a payout offers: the node's suggested tip, and twice the latest block's base fee
 * plus that tip as the ceiling (room for the base fee to double while the file is signed).
 * Throws when that ceiling is above `max_fee_per_gas_eth`: Coffer does not build payouts
 * that would pay more than the operator allowed, it waits for cheaper blocks.
 */
export async function readEthereumFees(client: PublicClient, capGwei: number): Promise<EthFees> {
  if (!Number.isFinite(capGwei) || capGwei <= 0) {
    throw new RangeError(`max_fee_per_gas_eth is a number of gwei above zero, got ${capGwei}`);
  }
  const cap = parseGwei(capGwei.toFixed(9));
  const [tipHex, block] = await Promise.all([
    client.request({ method: 'eth_maxPriorityFeePerGas' }),
    client.getBlock({ blockTag: 'latest' }),
  ]);
  const maxPriorityFeePerGas = hexToBigInt(tipHex);
  if (block.baseFeePerGas === null) {
    throw new Error('The node gives no base fee (a chain before EIP-1559): no payout can be built');
  }
  const maxFeePerGas = 2n * block.baseFeePerGas + maxPriorityFeePerGas;
  if (maxFeePerGas > cap) {
    throw new Error(
      `The network's fee is ${formatGwei(maxFeePerGas)} gwei per gas (twice the base fee ${formatGwei(block.baseFeePerGas)} plus the tip ${formatGwei(maxPriorityFeePerGas)}), above the cap max_fee_per_gas_eth of ${formatGwei(cap)} gwei`,
    );
  }
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * Gas for one payout: 21000 for ETH; a token transfer is estimated by the node as sent
 * from the payout address (which fails while that address lacks the tokens), plus a margin.
 */
export async function estimatePayoutGas(
  client: PublicClient,
  p: { from: string; assetId: EthAssetId; recipient: string; amount: bigint; usdtContract: string },
): Promise<bigint> {
  const recipient = addressOrThrow('The recipient', p.recipient);
  if (p.assetId === 'ETH') return ETH_TRANSFER_GAS;
  const estimate = await client.estimateGas({
    account: addressOrThrow('The payout address', p.from),
    to: addressOrThrow('USDT_ERC20_CONTRACT', p.usdtContract),
    data: transferData(recipient, p.amount),
    value: 0n,
  });
  return estimate + (estimate * TOKEN_GAS_MARGIN_PERCENT + 99n) / 100n;
}

/** True when the payout address has a mined transaction with this nonce (latest count above it). */
export async function isNonceUsed(
  client: PublicClient,
  from: string,
  nonce: number,
): Promise<boolean> {
  const count = await client.getTransactionCount({
    address: addressOrThrow('The payout address', from),
    blockTag: 'latest',
  });
  return count > nonce;
}
