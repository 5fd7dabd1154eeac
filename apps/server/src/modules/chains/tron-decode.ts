import type { SeenTransfer } from './chain-adapter';
import { eventAddress, logAddress } from './tron-address';
import { field, isBlockId, isHeight } from './tron-api';

/** keccak256('Transfer(address,address,uint256)'): topic 0 of a TRC-20 Transfer log. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** The selectors of ERC-20's `transfer(address,uint256)` and `transferFrom(…)`, as TRC-20's. */
const TRANSFER_CALLS = ['a9059cbb', '23b872dd'];

/**
 * The id of a block's transaction when it called the token's `transfer` or `transferFrom`
 * and succeeded (so it emitted a Transfer event the events API must show); null otherwise.
 */
export function successfulTokenCall(tx: unknown, contractHex: string): string | null {
  const contract = field(tx, 'raw_data', 'contract');
  const call = Array.isArray(contract) ? contract[0] : undefined;
  if (field(call, 'type') !== 'TriggerSmartContract') return null;
  const target = field(call, 'parameter', 'value', 'contract_address');
  const data = field(call, 'parameter', 'value', 'data');
  if (typeof target !== 'string' || eventAddress(target) !== contractHex) return null;
  if (typeof data !== 'string' || !TRANSFER_CALLS.some((sel) => data.startsWith(sel))) return null;
  const ret = field(tx, 'ret');
  const outcome = Array.isArray(ret) ? field(ret[0], 'contractRet') : undefined;
  const txId = field(tx, 'txID');
  return outcome === 'SUCCESS' && typeof txId === 'string' ? txId.toLowerCase() : null;
}

/** One event as a transfer of this contract in this block; throws on a malformed one. */
export function transferOfEvent(
  event: unknown,
  height: number,
  contractHex: string,
): SeenTransfer | null {
  if (field(event, 'event_name') !== 'Transfer') return null;
  const contract = field(event, 'contract_address');
  if (typeof contract !== 'string' || eventAddress(contract) !== contractHex) return null;
  const txId = field(event, 'transaction_id');
  const index = field(event, 'event_index');
  const to = field(event, 'result', 'to');
  const value = field(event, 'result', 'value');
  const key = typeof to === 'string' ? eventAddress(to) : null;
  if (
    field(event, 'block_number') !== height ||
    !isBlockId(txId) ||
    !isHeight(index) ||
    key === null ||
    typeof value !== 'string' ||
    !/^\d{1,78}$/.test(value)
  ) {
    throw new Error(`TRON API: a malformed Transfer event in block ${height}`);
  }
  return {
    txHash: txId.toLowerCase(),
    outputIndex: index,
    matchKey: key,
    assetId: 'USDT-TRC20',
    amountMinor: BigInt(value),
  };
}

/** A receipt's log as a Transfer of the configured token; null for any other log. */
export function paymentOfLog(
  log: unknown,
  hash: string,
  index: number,
  contractHex: string,
): SeenTransfer | null {
  if (logAddress(field(log, 'address')) !== contractHex) return null;
  const topics = field(log, 'topics');
  if (!Array.isArray(topics) || typeof topics[0] !== 'string') return null;
  if (topics[0].replace(/^0x/i, '').toLowerCase() !== TRANSFER_TOPIC) return null;
  const to = topics[2];
  const data = field(log, 'data');
  if (
    typeof to !== 'string' ||
    !/^(0x)?[0-9a-fA-F]{64}$/.test(to) ||
    typeof data !== 'string' ||
    !/^(0x)?[0-9a-fA-F]{64}$/.test(data)
  ) {
    throw new Error(`TRON API: a malformed Transfer log in transaction ${hash}`);
  }
  return {
    txHash: hash,
    outputIndex: index,
    matchKey: `41${to.slice(-40).toLowerCase()}`,
    assetId: 'USDT-TRC20',
    amountMinor: BigInt(`0x${data.replace(/^0x/i, '')}`),
  };
}
