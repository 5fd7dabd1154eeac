import type { BlockRef, ChainTransaction, PayoutWatch, SeenTransfer } from './chain-adapter';
import { blockAt, blockTransactions, field, isHeight, isObject, type TronApi } from './tron-api';
import { paymentOfLog } from './tron-decode';

/** The API and the configured token (21-byte hex), as payouts read transactions. */
export type TronReader = { api: TronApi; contractHex: string };

/** The transactions of `block` staff typed (TRON has no batches, spends or sender to watch). */
export async function payoutEvidence(
  r: TronReader,
  block: BlockRef,
  watch: PayoutWatch,
): Promise<ChainTransaction[]> {
  const found: ChainTransaction[] = [];
  for (const tx of await blockTransactions(r.api, block)) {
    const txId = field(tx, 'txID');
    if (typeof txId !== 'string' || !watch.hashes.has(txId.toLowerCase())) continue;
    const read = await transactionInfo(r, txId.toLowerCase(), block);
    // The block holds it, so a receipt the API does not have yet is a lag, not "nothing".
    if (!read) {
      throw new Error(
        `TRON API: transaction ${txId} of block ${block.height} has no receipt yet; trying again`,
      );
    }
    found.push(read);
  }
  return found;
}

/**
 * One transaction's receipt as payouts read it. `inBlock` is the block it was found in
 * (saves asking for that block again); otherwise its block is read for the block's hash.
 */
export async function transactionInfo(
  r: TronReader,
  hash: string,
  inBlock: BlockRef | null,
): Promise<ChainTransaction | null> {
  const info = await r.api.request('POST', '/wallet/gettransactioninfobyid', { value: hash });
  // The node answers an empty object for an id it has no receipt of.
  if (isObject(info) && Object.keys(info).length === 0) return null;
  const id = field(info, 'id');
  if (typeof id !== 'string' || id.toLowerCase() !== hash) {
    throw new Error(`TRON API: gettransactioninfobyid ${hash} answered another transaction`);
  }
  const number = field(info, 'blockNumber');
  let block: { height: number; hash: string } | null = null;
  if (number !== undefined) {
    if (!isHeight(number)) {
      throw new Error(`TRON API: gettransactioninfobyid ${hash} answered a malformed block`);
    }
    if (inBlock && inBlock.height === number) {
      block = { height: number, hash: inBlock.hash };
    } else {
      const at = await blockAt(r.api, number);
      if (!at) {
        throw new Error(`TRON API: transaction ${hash} is in block ${number}, which it lacks`);
      }
      block = { height: at.height, hash: at.hash };
    }
  }
  const logs = field(info, 'log') ?? [];
  if (!Array.isArray(logs)) {
    throw new Error(`TRON API: gettransactioninfobyid ${hash} answered malformed logs`);
  }
  const payments: SeenTransfer[] = [];
  for (const [index, log] of logs.entries()) {
    const payment = paymentOfLog(log, hash, index, r.contractHex);
    if (payment) payments.push(payment);
  }
  return {
    hash,
    block,
    from: null,
    nonce: null,
    // The receipt's result is set for smart-contract calls; a TRC-20 transfer that ran out
    // of energy or reverted says so there (and its logs are gone with it).
    success: field(info, 'receipt', 'result') === 'SUCCESS',
    payments,
    spends: [],
    // The fee is TRX (burnt for energy and bandwidth), not the payout's asset.
    feeMinor: null,
  };
}
