import { decodeFunctionData, type Hash, hexToBigInt, hexToNumber } from 'viem';
import type { BlockRef, ChainTransaction, PayoutWatch, SeenTransfer } from './chain-adapter';
import {
  callNode,
  type EthereumNode,
  type RpcTransaction,
  TOKEN_ABI,
  TRANSFER_TOPIC,
} from './ethereum-rpc';

/** The transactions of `block` that `watch` names, by hash or sender (PayoutNode.payoutEvidence). */
export async function payoutEvidence(
  node: EthereumNode,
  block: BlockRef,
  watch: PayoutWatch,
): Promise<ChainTransaction[]> {
  const full = await callNode('eth_getBlockByHash', () =>
    node.client.request({ method: 'eth_getBlockByHash', params: [block.hash as Hash, true] }),
  );
  if (!full) throw new Error(`Ethereum node: block ${block.height} (${block.hash}) is gone`);
  const picked = full.transactions.filter(
    (tx): tx is RpcTransaction =>
      typeof tx !== 'string' &&
      (watch.hashes.has(tx.hash) ||
        (watch.sender !== null && tx.from.toLowerCase() === watch.sender)),
  );
  return Promise.all(picked.map((tx) => readTx(node, tx)));
}

/** A transaction by hash, in the mempool or mined, or null (PayoutNode.findTransaction). */
export async function findTransaction(
  node: EthereumNode,
  hash: string,
): Promise<ChainTransaction | null> {
  if (!/^0x[0-9a-f]{64}$/i.test(hash)) return null;
  const tx = await callNode('eth_getTransactionByHash', () =>
    node.client.request({ method: 'eth_getTransactionByHash', params: [hash as Hash] }),
  );
  return tx ? readTx(node, tx) : null;
}

/** The payout transaction's payments, fee and outcome, from its receipt. */
async function readTx(node: EthereumNode, tx: RpcTransaction): Promise<ChainTransaction> {
  const base = {
    hash: tx.hash,
    from: tx.from.toLowerCase(),
    nonce: hexToNumber(tx.nonce),
    spends: [],
  };
  if (!tx.blockHash || tx.blockNumber === null) {
    return { ...base, block: null, success: true, payments: intended(node, tx), feeMinor: null };
  }
  const receipt = await callNode('eth_getTransactionReceipt', () =>
    node.client.request({ method: 'eth_getTransactionReceipt', params: [tx.hash] }),
  );
  if (!receipt || receipt.blockHash !== tx.blockHash) {
    throw new Error(`Ethereum node: no receipt for ${tx.hash} in its block`);
  }
  const success = receipt.status === '0x1';
  const payments: SeenTransfer[] = [];
  const value = hexToBigInt(tx.value);
  if (success && value > 0n && tx.to) {
    payments.push({
      txHash: tx.hash,
      outputIndex: -1,
      matchKey: tx.to.toLowerCase(),
      assetId: 'ETH',
      amountMinor: value,
    });
  }
  for (const log of success ? receipt.logs : []) {
    if (log.address.toLowerCase() !== node.usdtContract) continue;
    if (log.topics[0] !== TRANSFER_TOPIC || log.topics.length !== 3 || log.data.length !== 66)
      continue;
    const toTopic = log.topics[2];
    if (!toTopic || log.logIndex === null) continue;
    payments.push({
      txHash: tx.hash,
      outputIndex: hexToNumber(log.logIndex),
      matchKey: `0x${toTopic.slice(26)}`.toLowerCase(),
      assetId: 'USDT-ERC20',
      amountMinor: hexToBigInt(log.data),
    });
  }
  return {
    ...base,
    block: { height: hexToNumber(tx.blockNumber), hash: tx.blockHash },
    success,
    payments,
    feeMinor: hexToBigInt(receipt.gasUsed) * hexToBigInt(receipt.effectiveGasPrice),
  };
}

/** What a transaction waiting in the mempool would pay: its value, or a token transfer. */
function intended(node: EthereumNode, tx: RpcTransaction): SeenTransfer[] {
  const value = hexToBigInt(tx.value);
  const out: SeenTransfer[] = [];
  if (value > 0n && tx.to) {
    out.push({
      txHash: tx.hash,
      outputIndex: -1,
      matchKey: tx.to.toLowerCase(),
      assetId: 'ETH',
      amountMinor: value,
    });
  }
  if (tx.to?.toLowerCase() === node.usdtContract) {
    try {
      const call = decodeFunctionData({ abi: TOKEN_ABI, data: tx.input });
      if (call.functionName === 'transfer') {
        const [to, amount] = call.args;
        // The log index is known once mined; until then the transfer is the first.
        out.push({
          txHash: tx.hash,
          outputIndex: -2,
          matchKey: to.toLowerCase(),
          assetId: 'USDT-ERC20',
          amountMinor: amount,
        });
      }
    } catch {
      // Not a plain transfer: it pays nothing Coffer can read before it is mined.
    }
  }
  return out;
}
