import { type Hash, type Hex, hexToBigInt, hexToNumber, type RpcLog } from 'viem';
import type { BlockRef, ScannedBlock, SeenTransfer, WatchedLookup } from './chain-adapter';
import {
  callNode,
  type EthereumNode,
  type FullBlock,
  shortMessage,
  TRANSFER_TOPIC,
} from './ethereum-rpc';

/** Every payment in `block` to a watched address (ChainAdapter.transfersIn). */
export async function transfersIn(
  node: EthereumNode,
  block: BlockRef,
  watched: WatchedLookup,
): Promise<SeenTransfer[]> {
  const blockHash = block.hash as Hash;
  // Both by hash, so the answer is exactly this block's, even if the chain moved since.
  const [full, logs] = await Promise.all([
    callNode('eth_getBlockByHash', () =>
      node.client.request({ method: 'eth_getBlockByHash', params: [blockHash, true] }),
    ),
    callNode('eth_getLogs', () =>
      node.client.request({
        method: 'eth_getLogs',
        params: [{ blockHash, address: node.usdtContract, topics: [TRANSFER_TOPIC] }],
      }),
    ),
  ]);
  if (!full) throw new Error(`Ethereum node: block ${block.height} (${blockHash}) is gone`);
  const [scanned] = await paymentsIn(node, [full], logs, watched);
  return scanned?.transfers ?? [];
}

/**
 * Catching up (ChainAdapter.scanRange): the blocks' bodies in one batched request, the
 * token's logs of the whole range in one `eth_getLogs`, then the last block read again.
 * If it is still the same block, no block of the run changed in between (each names its
 * parent), so the logs are exactly the run's; otherwise the run is dropped (empty answer).
 */
export async function scanRange(
  node: EthereumNode,
  from: number,
  to: number,
  watched: WatchedLookup,
): Promise<ScannedBlock[]> {
  const heights = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const bodies = await callNode('eth_getBlockByNumber', () =>
    Promise.all(
      heights.map((h) =>
        node.batched.request({
          method: 'eth_getBlockByNumber',
          params: [`0x${h.toString(16)}`, true],
        }),
      ),
    ),
  );
  let run: FullBlock[] = [];
  for (const body of bodies) {
    if (!body?.hash || !body.number) break;
    const previous = run.at(-1);
    if (previous && body.parentHash !== previous.hash) break;
    run.push(body);
  }
  let logs: RpcLog[] | null = null;
  while (logs === null && run.length > 0) {
    const last = run.at(-1) as FullBlock;
    try {
      logs = await node.client.request({
        method: 'eth_getLogs',
        params: [
          {
            fromBlock: `0x${from.toString(16)}`,
            toBlock: last.number as Hex,
            address: node.usdtContract,
            topics: [TRANSFER_TOPIC],
          },
        ],
      });
    } catch (err) {
      // Providers cap a range's logs; a busy range is read in halves, then one block.
      if (run.length === 1) {
        throw new Error(`Ethereum node: eth_getLogs failed: ${shortMessage(err)}`, {
          cause: err,
        });
      }
      run = run.slice(0, Math.ceil(run.length / 2));
    }
  }
  const last = run.at(-1);
  if (!last || !logs) return [];
  const again = await callNode('eth_getBlockByNumber', () =>
    node.client.request({ method: 'eth_getBlockByNumber', params: [last.number as Hex, false] }),
  );
  if (!again || again.hash !== last.hash) return [];
  const inRun = new Set(run.map((b) => b.hash));
  if (logs.some((log) => !log.blockHash || !inRun.has(log.blockHash))) return [];
  return paymentsIn(node, run, logs, watched);
}

/**
 * The payments to watched addresses in `blocks`: plain ETH from their transactions, and
 * the token's `Transfer` logs among `logs`. The lookup is asked once for all the payees.
 */
async function paymentsIn(
  node: EthereumNode,
  blocks: FullBlock[],
  logs: RpcLog[],
  watched: WatchedLookup,
): Promise<ScannedBlock[]> {
  const ethCandidates = plainPayments(blocks);
  const tokenCandidates = tokenPayments(node, blocks, logs);
  const keys = new Set([
    ...ethCandidates.map((c) => c.to),
    ...tokenCandidates.map((c) => c.transfer.matchKey),
  ]);
  const isWatched = keys.size > 0 ? await watched([...keys]) : new Set<string>();
  const paid = ethCandidates.filter((c) => isWatched.has(c.to));
  // A transaction to an address with code (a contract, or an account delegated under
  // EIP-7702) can revert and move nothing; only the few matches pay for a receipt.
  const receipts = await callNode('eth_getTransactionReceipt', () =>
    Promise.all(
      paid.map((c) =>
        node.batched.request({ method: 'eth_getTransactionReceipt', params: [c.hash] }),
      ),
    ),
  );
  const scanned: ScannedBlock[] = blocks.map((full) => ({
    block: {
      height: hexToNumber(full.number as Hex),
      hash: full.hash as string,
      parentHash: full.parentHash,
      time: new Date(hexToNumber(full.timestamp) * 1000),
    },
    transfers: [],
  }));
  paid.forEach((c, i) => {
    const receipt = receipts[i];
    const block = scanned[c.block] as ScannedBlock;
    // A receipt from another block means the chain moved under this call: ask again later.
    if (!receipt || receipt.blockHash !== block.block.hash) {
      throw new Error(`Ethereum node: no receipt for ${c.hash} in block ${block.block.height}`);
    }
    if (receipt.status !== '0x1') return;
    block.transfers.push({
      txHash: c.hash,
      outputIndex: -1,
      matchKey: c.to,
      assetId: 'ETH',
      amountMinor: c.value,
    });
  });
  for (const c of tokenCandidates) {
    if (isWatched.has(c.transfer.matchKey)) scanned[c.block]?.transfers.push(c.transfer);
  }
  return scanned;
}

/** The plain ETH sent by the blocks' transactions (`block`: the index in `blocks`). */
function plainPayments(
  blocks: FullBlock[],
): { block: number; hash: Hash; to: string; value: bigint }[] {
  const candidates: { block: number; hash: Hash; to: string; value: bigint }[] = [];
  blocks.forEach((full, i) => {
    for (const tx of full.transactions) {
      if (typeof tx === 'string') {
        throw new Error('Ethereum node: block without its transactions');
      }
      const to = tx.to?.toLowerCase();
      if (!to) continue;
      const value = hexToBigInt(tx.value);
      if (value > 0n) candidates.push({ block: i, hash: tx.hash, to, value });
    }
  });
  return candidates;
}

/** The token's `Transfer` logs among `logs`, each with the index of its block in `blocks`. */
function tokenPayments(
  node: EthereumNode,
  blocks: FullBlock[],
  logs: RpcLog[],
): { block: number; transfer: SeenTransfer }[] {
  const blockOfHash = new Map(blocks.map((b, i) => [b.hash, i]));
  const candidates: { block: number; transfer: SeenTransfer }[] = [];
  for (const log of logs) {
    // Only the standard shape: both addresses indexed, the amount as the one data word.
    if (log.removed || log.topics.length !== 3 || log.data.length !== 66) continue;
    if (log.address.toLowerCase() !== node.usdtContract) continue;
    const block = log.blockHash ? blockOfHash.get(log.blockHash) : undefined;
    const toTopic = log.topics[2];
    if (block === undefined || !toTopic || !log.transactionHash || log.logIndex === null) continue;
    const amount = hexToBigInt(log.data);
    if (amount === 0n) continue;
    candidates.push({
      block,
      transfer: {
        txHash: log.transactionHash,
        outputIndex: hexToNumber(log.logIndex),
        matchKey: `0x${toTopic.slice(26)}`.toLowerCase(),
        assetId: 'USDT-ERC20',
        amountMinor: amount,
      },
    });
  }
  return candidates;
}
