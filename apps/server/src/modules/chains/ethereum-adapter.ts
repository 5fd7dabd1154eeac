import { ASSETS, type TAssetId, validateEthereumAddress } from '@coffer/shared';
import {
  BaseError,
  createPublicClient,
  type Hash,
  type Hex,
  HttpRequestError,
  hexToBigInt,
  hexToNumber,
  http,
  type PublicClient,
  parseAbi,
  TimeoutError,
  toEventSelector,
} from 'viem';
import { StartupError } from '../../lib/startup-error';
import type { BlockRef, ChainAdapter, SeenTransfer } from './chain-adapter';

/** `Transfer(address indexed from, address indexed to, uint256 value)`, the ERC-20 event. */
const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
const DECIMALS_ABI = parseAbi(['function decimals() view returns (uint8)']);

export type EthereumAdapterOptions = {
  /** The node's JSON-RPC URL (`ETH_RPC_URL`). */
  rpcUrl: string;
  /** The USDT ERC-20 contract (`USDT_ERC20_CONTRACT`). */
  usdtContract: string;
  /** How long one request may take before it counts as no answer. */
  timeoutMs?: number;
};

/**
 * Ethereum for the chain watcher (issue 14, docs/decisions/0021): plain ETH sent by a
 * block's transactions and `Transfer` logs of the configured USDT contract, to watched
 * addresses. Requests go to the node as raw JSON-RPC through viem's transport, so the
 * thousands of transactions of a full block are not each turned into objects the watcher
 * never reads. viem retries nothing here: the watcher owns retries and backoff, and every
 * failure throws (never "no deposits").
 */
export class EthereumAdapter implements ChainAdapter {
  readonly chain = 'ethereum' as const;
  readonly assets: readonly TAssetId[] = ['ETH', 'USDT-ERC20'];
  private readonly client: PublicClient;
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
    this.client = createPublicClient({
      transport: http(url, {
        retryCount: 0,
        timeout: options.timeoutMs ?? 10_000,
        fetchOptions: { headers },
      }),
    });
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

  async transfersIn(block: BlockRef, watched: ReadonlySet<string>): Promise<SeenTransfer[]> {
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

    const seen: SeenTransfer[] = [];
    const ethCandidates: { hash: Hash; to: string; value: bigint }[] = [];
    for (const tx of full.transactions) {
      if (typeof tx === 'string') throw new Error('Ethereum node: block without its transactions');
      const to = tx.to?.toLowerCase();
      if (!to || !watched.has(to)) continue;
      const value = hexToBigInt(tx.value);
      if (value > 0n) ethCandidates.push({ hash: tx.hash, to, value });
    }
    // A transaction to an address with code (a contract, or an account delegated under
    // EIP-7702) can revert and move nothing; only the few matches pay for a receipt.
    const receipts = await Promise.all(
      ethCandidates.map((c) =>
        this.call('eth_getTransactionReceipt', () =>
          this.client.request({ method: 'eth_getTransactionReceipt', params: [c.hash] }),
        ),
      ),
    );
    ethCandidates.forEach((c, i) => {
      const receipt = receipts[i];
      // A receipt from another block means the chain moved under this call: ask again later.
      if (!receipt || receipt.blockHash !== blockHash) {
        throw new Error(`Ethereum node: no receipt for ${c.hash} in block ${block.height}`);
      }
      if (receipt.status !== '0x1') return;
      seen.push({
        txHash: c.hash,
        outputIndex: -1,
        matchKey: c.to,
        assetId: 'ETH',
        amountMinor: c.value,
      });
    });

    for (const log of logs) {
      // Only the standard shape: both addresses indexed, the amount as the one data word.
      if (log.removed || log.topics.length !== 3 || log.data.length !== 66) continue;
      if (log.address.toLowerCase() !== this.usdtContract || log.blockHash !== blockHash) continue;
      const toTopic = log.topics[2];
      if (!toTopic) continue;
      const to = `0x${toTopic.slice(26)}`.toLowerCase();
      if (!watched.has(to) || !log.transactionHash || log.logIndex === null) continue;
      const amount = hexToBigInt(log.data);
      if (amount === 0n) continue;
      seen.push({
        txHash: log.transactionHash,
        outputIndex: hexToNumber(log.logIndex),
        matchKey: to,
        assetId: 'USDT-ERC20',
        amountMinor: amount,
      });
    }
    return seen;
  }

  /** The chain configuration's start-up hook (`verifyChainConfig`). */
  verifyConfig(): Promise<void> {
    return this.verifyTokenDecimals();
  }

  /**
   * The start-up check (issue 14): the configured contract must answer `decimals()` with
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
