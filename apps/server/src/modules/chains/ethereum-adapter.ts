import { ASSETS, type TAssetId, validateEthereumAddress } from '@coffer/shared';
import { StartupError } from '@server/lib/startup-error';
import {
  BaseError,
  type BlockTag,
  createPublicClient,
  decodeFunctionData,
  type Hash,
  type Hex,
  HttpRequestError,
  hexToBigInt,
  hexToNumber,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
  type RpcBlock,
  type RpcLog,
  TimeoutError,
  toEventSelector,
} from 'viem';
import type {
  BlockRef,
  ChainAdapter,
  ChainTransaction,
  PayoutNode,
  PayoutWatch,
  ScannedBlock,
  SeenTransfer,
  WatchedLookup,
} from './chain-adapter';

/** A block as `eth_getBlockByNumber`/`ByHash` answer it with its transactions. */
type FullBlock = RpcBlock<BlockTag, boolean>;

/** `Transfer(address indexed from, address indexed to, uint256 value)`, the ERC-20 event. */
const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
const DECIMALS_ABI = parseAbi(['function decimals() view returns (uint8)']);
const TOKEN_ABI = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);
type RpcTransaction = Extract<FullBlock['transactions'][number], object>;

export type EthereumAdapterOptions = {
  /** The node's JSON-RPC URL (`ETH_RPC_URL`). */
  rpcUrl: string;
  /** The USDT ERC-20 contract (`USDT_ERC20_CONTRACT`). */
  usdtContract: string;
  /** How long one request may take before it counts as no answer. */
  timeoutMs?: number;
};

/**
 * Ethereum for the chain watcher (docs/decisions/0021): plain ETH sent by a
 * block's transactions and `Transfer` logs of the configured USDT contract, to watched
 * addresses. Requests go to the node as raw JSON-RPC through viem's transport, so the
 * thousands of transactions of a full block are not each turned into objects the watcher
 * never reads. viem retries nothing here: the watcher owns retries and backoff, and every
 * failure throws (never "no deposits").
 */
export class EthereumAdapter implements ChainAdapter, PayoutNode {
  readonly chain = 'ethereum' as const;
  readonly assets: readonly TAssetId[] = ['ETH', 'USDT-ERC20'];
  private readonly client: PublicClient;
  /** The same node, requests made together sent as one JSON-RPC batch (catching up). */
  private readonly batched: PublicClient;
  private readonly usdtContract: Hex;

  constructor(options: EthereumAdapterOptions) {
    const contract = validateEthereumAddress(options.usdtContract);
    if (!contract.ok) {
      throw new StartupError(
        `USDT_ERC20_CONTRACT: "${options.usdtContract}" is not an Ethereum address (0x and 40 hex digits, EIP-55 checksum if mixed case)`,
      );
    }
    this.usdtContract = contract.address.toLowerCase() as Hex;
    const { url, headers } = withoutCredentials(options.rpcUrl);
    const transport = (batch: boolean) =>
      http(url, {
        retryCount: 0,
        timeout: options.timeoutMs ?? 10_000,
        fetchOptions: { headers },
        batch: batch ? { batchSize: 100, wait: 0 } : false,
      });
    this.client = createPublicClient({ transport: transport(false) });
    this.batched = createPublicClient({ transport: transport(true) });
  }

  matchKeyOf(address: string): string | null {
    // The rule addresses staff enter are held to: mixed case must be a valid EIP-55
    // checksum; all lower or all upper case carries none.
    const result = validateEthereumAddress(address);
    return result.ok ? result.address.toLowerCase() : null;
  }

  async tip(): Promise<number> {
    const height = await this.call('eth_blockNumber', () =>
      this.client.request({ method: 'eth_blockNumber' }),
    );
    return hexToNumber(height);
  }

  async blockAt(height: number): Promise<BlockRef | null> {
    const block = await this.call('eth_getBlockByNumber', () =>
      this.client.request({
        method: 'eth_getBlockByNumber',
        params: [`0x${height.toString(16)}`, false],
      }),
    );
    if (!block) return null;
    if (!block.hash || !block.number) throw new Error(`Ethereum node: block ${height} is pending`);
    return {
      height: hexToNumber(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      time: new Date(hexToNumber(block.timestamp) * 1000),
    };
  }

  async transfersIn(block: BlockRef, watched: WatchedLookup): Promise<SeenTransfer[]> {
    const blockHash = block.hash as Hash;
    // Both by hash, so the answer is exactly this block's, even if the chain moved since.
    const [full, logs] = await Promise.all([
      this.call('eth_getBlockByHash', () =>
        this.client.request({ method: 'eth_getBlockByHash', params: [blockHash, true] }),
      ),
      this.call('eth_getLogs', () =>
        this.client.request({
          method: 'eth_getLogs',
          params: [{ blockHash, address: this.usdtContract, topics: [TRANSFER_TOPIC] }],
        }),
      ),
    ]);
    if (!full) throw new Error(`Ethereum node: block ${block.height} (${blockHash}) is gone`);
    const [scanned] = await this.paymentsIn([full], logs, watched);
    return scanned?.transfers ?? [];
  }

  /**
   * Catching up (ChainAdapter.scanRange): the blocks' bodies in one batched request, the
   * token's logs of the whole range in one `eth_getLogs`, then the last block read again.
   * If it is still the same block, no block of the run changed in between (each names its
   * parent), so the logs are exactly the run's; otherwise the run is dropped (empty answer).
   */
  async scanRange(from: number, to: number, watched: WatchedLookup): Promise<ScannedBlock[]> {
    const heights = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
    const bodies = await this.call('eth_getBlockByNumber', () =>
      Promise.all(
        heights.map((h) =>
          this.batched.request({
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
        logs = await this.client.request({
          method: 'eth_getLogs',
          params: [
            {
              fromBlock: `0x${from.toString(16)}`,
              toBlock: last.number as Hex,
              address: this.usdtContract,
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
    const again = await this.call('eth_getBlockByNumber', () =>
      this.client.request({ method: 'eth_getBlockByNumber', params: [last.number as Hex, false] }),
    );
    if (!again || again.hash !== last.hash) return [];
    const inRun = new Set(run.map((b) => b.hash));
    if (logs.some((log) => !log.blockHash || !inRun.has(log.blockHash))) return [];
    return this.paymentsIn(run, logs, watched);
  }

  /**
   * The payments to watched addresses in `blocks`: plain ETH from their transactions, and
   * the token's `Transfer` logs among `logs`. The lookup is asked once for all the payees.
   */
  private async paymentsIn(
    blocks: FullBlock[],
    logs: RpcLog[],
    watched: WatchedLookup,
  ): Promise<ScannedBlock[]> {
    const ethCandidates: { block: number; hash: Hash; to: string; value: bigint }[] = [];
    blocks.forEach((full, i) => {
      for (const tx of full.transactions) {
        if (typeof tx === 'string') {
          throw new Error('Ethereum node: block without its transactions');
        }
        const to = tx.to?.toLowerCase();
        if (!to) continue;
        const value = hexToBigInt(tx.value);
        if (value > 0n) ethCandidates.push({ block: i, hash: tx.hash, to, value });
      }
    });
    const blockOfHash = new Map(blocks.map((b, i) => [b.hash, i]));
    const tokenCandidates: { block: number; transfer: SeenTransfer }[] = [];
    for (const log of logs) {
      // Only the standard shape: both addresses indexed, the amount as the one data word.
      if (log.removed || log.topics.length !== 3 || log.data.length !== 66) continue;
      if (log.address.toLowerCase() !== this.usdtContract) continue;
      const block = log.blockHash ? blockOfHash.get(log.blockHash) : undefined;
      const toTopic = log.topics[2];
      if (block === undefined || !toTopic || !log.transactionHash || log.logIndex === null)
        continue;
      const amount = hexToBigInt(log.data);
      if (amount === 0n) continue;
      tokenCandidates.push({
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
    const keys = new Set([
      ...ethCandidates.map((c) => c.to),
      ...tokenCandidates.map((c) => c.transfer.matchKey),
    ]);
    const isWatched = keys.size > 0 ? await watched([...keys]) : new Set<string>();
    const paid = ethCandidates.filter((c) => isWatched.has(c.to));
    // A transaction to an address with code (a contract, or an account delegated under
    // EIP-7702) can revert and move nothing; only the few matches pay for a receipt.
    const receipts = await this.call('eth_getTransactionReceipt', () =>
      Promise.all(
        paid.map((c) =>
          this.batched.request({ method: 'eth_getTransactionReceipt', params: [c.hash] }),
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

  /** The node's client, for building payouts (fees, gas estimates). */
  get publicClient(): PublicClient {
    return this.client;
  }

  /** The payout transaction's payments, fee and outcome, from its receipt. */
  private async readTx(tx: RpcTransaction): Promise<ChainTransaction> {
    const base = {
      hash: tx.hash,
      from: tx.from.toLowerCase(),
      nonce: hexToNumber(tx.nonce),
      spends: [],
    };
    if (!tx.blockHash || tx.blockNumber === null) {
      return { ...base, block: null, success: true, payments: this.intended(tx), feeMinor: null };
    }
    const receipt = await this.call('eth_getTransactionReceipt', () =>
      this.client.request({ method: 'eth_getTransactionReceipt', params: [tx.hash] }),
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
      if (log.address.toLowerCase() !== this.usdtContract) continue;
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
  private intended(tx: RpcTransaction): SeenTransfer[] {
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
    if (tx.to?.toLowerCase() === this.usdtContract) {
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

  async payoutEvidence(block: BlockRef, watch: PayoutWatch): Promise<ChainTransaction[]> {
    const full = await this.call('eth_getBlockByHash', () =>
      this.client.request({ method: 'eth_getBlockByHash', params: [block.hash as Hash, true] }),
    );
    if (!full) throw new Error(`Ethereum node: block ${block.height} (${block.hash}) is gone`);
    const picked = full.transactions.filter(
      (tx): tx is RpcTransaction =>
        typeof tx !== 'string' &&
        (watch.hashes.has(tx.hash) ||
          (watch.sender !== null && tx.from.toLowerCase() === watch.sender)),
    );
    return Promise.all(picked.map((tx) => this.readTx(tx)));
  }

  async findTransaction(hash: string): Promise<ChainTransaction | null> {
    if (!/^0x[0-9a-f]{64}$/i.test(hash)) return null;
    const tx = await this.call('eth_getTransactionByHash', () =>
      this.client.request({ method: 'eth_getTransactionByHash', params: [hash as Hash] }),
    );
    return tx ? this.readTx(tx) : null;
  }

  async broadcast(signedHex: string): Promise<'sent' | 'known'> {
    const hash = keccak256(signedHex as Hex);
    try {
      await this.client.request({ method: 'eth_sendRawTransaction', params: [signedHex as Hex] });
      return 'sent';
    } catch (err) {
      // Sent before (in the pool or mined): the node refuses it as known or its nonce as
      // used; if it has this very transaction, sending it again changed nothing.
      if (await this.findTransaction(hash)) return 'known';
      throw new Error(`Ethereum node: eth_sendRawTransaction failed: ${shortMessage(err)}`, {
        cause: err,
      });
    }
  }

  async inMempool(hash: string): Promise<boolean> {
    const tx = await this.findTransaction(hash);
    return tx !== null && tx.block === null;
  }

  async chainId(): Promise<number> {
    return this.call('eth_chainId', () => this.client.getChainId());
  }

  /** The address's next nonce: 'latest' counts mined transactions, 'pending' the pool's too. */
  async nonceOf(address: string, tag: 'latest' | 'pending'): Promise<number> {
    return this.call('eth_getTransactionCount', () =>
      this.client.getTransactionCount({ address: address as Hex, blockTag: tag }),
    );
  }

  /** ETH and USDT held by an address, in wei and 10^-6 USDT. */
  async balancesOf(address: string): Promise<{ eth: bigint; usdt: bigint }> {
    const [eth, usdt] = await this.call('balances', () =>
      Promise.all([
        this.client.getBalance({ address: address as Hex }),
        this.client.readContract({
          address: this.usdtContract,
          abi: TOKEN_ABI,
          functionName: 'balanceOf',
          args: [address as Hex],
        }),
      ]),
    );
    return { eth, usdt };
  }

  /** The USDT contract payouts call (lower-case 0x). */
  get tokenContract(): string {
    return this.usdtContract;
  }

  /** The chain configuration's start-up hook (`verifyChainConfig`). */
  verifyConfig(): Promise<void> {
    return this.verifyTokenDecimals();
  }

  /**
   * The start-up check: the configured contract must answer `decimals()` with
   * USDT-ERC20's decimals, or every amount would be credited a power of ten wrong. A wrong
   * contract is a StartupError naming USDT_ERC20_CONTRACT; a node that does not answer
   * throws a plain error naming ETH_RPC_URL (the node may just be down for a while).
   */
  async verifyTokenDecimals(): Promise<void> {
    const expected = ASSETS['USDT-ERC20'].decimals;
    let decimals: number;
    try {
      decimals = await this.client.readContract({
        address: this.usdtContract,
        abi: DECIMALS_ABI,
        functionName: 'decimals',
      });
    } catch (err) {
      if (isNoAnswer(err)) {
        throw new Error(`ETH_RPC_URL: the Ethereum node did not answer (${shortMessage(err)})`, {
          cause: err,
        });
      }
      throw new StartupError(
        `USDT_ERC20_CONTRACT: ${this.usdtContract} answers no decimals() on this chain (${shortMessage(err)})`,
        { cause: err },
      );
    }
    if (decimals !== expected) {
      throw new StartupError(
        `USDT_ERC20_CONTRACT: ${this.usdtContract} has ${decimals} decimals, USDT-ERC20 has ${expected}`,
      );
    }
  }

  /** One request; its failure says which call failed, without the node's URL (it may hold a key). */
  private async call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new Error(`Ethereum node: ${method} failed: ${shortMessage(err)}`, { cause: err });
    }
  }
}

/**
 * A node behind basic authentication is given as `https://user:pass@host/`; `fetch` refuses
 * a URL with credentials, so they travel as an `Authorization` header instead.
 */
function withoutCredentials(rpcUrl: string): { url: string; headers: Record<string, string> } {
  const url = new URL(rpcUrl);
  if (!url.username && !url.password) return { url: rpcUrl, headers: {} };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const basic = Buffer.from(`${user}:${password}`).toString('base64');
  return { url: url.toString(), headers: { authorization: `Basic ${basic}` } };
}

function isNoAnswer(err: unknown): boolean {
  return (
    err instanceof BaseError &&
    err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError) !== null
  );
}

/** viem's summary and the innermost cause, never the full message (it repeats the URL). */
function shortMessage(err: unknown): string {
  if (!(err instanceof BaseError)) return err instanceof Error ? err.message : String(err);
  const root = err.walk();
  const rootText =
    root instanceof BaseError
      ? [root.shortMessage, root.details].filter(Boolean).join(' ')
      : root instanceof Error
        ? root.message
        : '';
  return root === err || !rootText
    ? rootText || err.shortMessage
    : `${err.shortMessage} ${rootText}`;
}
