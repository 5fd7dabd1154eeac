import { ASSETS, type TAssetId, validateEthereumAddress } from '@coffer/shared';
import { StartupError } from '@server/lib/startup-error';
import {
  createPublicClient,
  type Hex,
  hexToNumber,
  http,
  keccak256,
  type PublicClient,
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
import { scanRange, transfersIn } from './ethereum-blocks';
import { findTransaction, payoutEvidence } from './ethereum-payout-reads';
import {
  callNode,
  DECIMALS_ABI,
  type EthereumNode,
  isNoAnswer,
  shortMessage,
  TOKEN_ABI,
  withoutCredentials,
} from './ethereum-rpc';

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
 *
 * Its parts: the requests and their errors (`ethereum-rpc.ts`), a block's payments read
 * from its transactions and logs (`ethereum-blocks.ts`), and payout transactions read from
 * their receipts (`ethereum-payout-reads.ts`).
 */
export class EthereumAdapter implements ChainAdapter, PayoutNode {
  readonly chain = 'ethereum' as const;
  readonly assets: readonly TAssetId[] = ['ETH', 'USDT-ERC20'];
  private readonly node: EthereumNode;

  constructor(options: EthereumAdapterOptions) {
    const contract = validateEthereumAddress(options.usdtContract);
    if (!contract.ok) {
      throw new StartupError(
        `USDT_ERC20_CONTRACT: "${options.usdtContract}" is not an Ethereum address (0x and 40 hex digits, EIP-55 checksum if mixed case)`,
      );
    }
    const { url, headers } = withoutCredentials(options.rpcUrl);
    const transport = (batch: boolean) =>
      http(url, {
        retryCount: 0,
        timeout: options.timeoutMs ?? 10_000,
        fetchOptions: { headers },
        batch: batch ? { batchSize: 100, wait: 0 } : false,
      });
    this.node = {
      client: createPublicClient({ transport: transport(false) }),
      batched: createPublicClient({ transport: transport(true) }),
      usdtContract: contract.address.toLowerCase() as Hex,
    };
  }

  matchKeyOf(address: string): string | null {
    // The rule addresses staff enter are held to: mixed case must be a valid EIP-55
    // checksum; all lower or all upper case carries none.
    const result = validateEthereumAddress(address);
    return result.ok ? result.address.toLowerCase() : null;
  }

  async tip(): Promise<number> {
    const height = await callNode('eth_blockNumber', () =>
      this.node.client.request({ method: 'eth_blockNumber' }),
    );
    return hexToNumber(height);
  }

  async blockAt(height: number): Promise<BlockRef | null> {
    const block = await callNode('eth_getBlockByNumber', () =>
      this.node.client.request({
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

  transfersIn(block: BlockRef, watched: WatchedLookup): Promise<SeenTransfer[]> {
    return transfersIn(this.node, block, watched);
  }

  /** Catching up in runs of blocks (ethereum-blocks.ts). */
  scanRange(from: number, to: number, watched: WatchedLookup): Promise<ScannedBlock[]> {
    return scanRange(this.node, from, to, watched);
  }

  /** The node's client, for building payouts (fees, gas estimates). */
  get publicClient(): PublicClient {
    return this.node.client;
  }

  payoutEvidence(block: BlockRef, watch: PayoutWatch): Promise<ChainTransaction[]> {
    return payoutEvidence(this.node, block, watch);
  }

  findTransaction(hash: string): Promise<ChainTransaction | null> {
    return findTransaction(this.node, hash);
  }

  async broadcast(signedHex: string): Promise<'sent' | 'known'> {
    const hash = keccak256(signedHex as Hex);
    try {
      await this.node.client.request({
        method: 'eth_sendRawTransaction',
        params: [signedHex as Hex],
      });
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
    return callNode('eth_chainId', () => this.node.client.getChainId());
  }

  /** The address's next nonce: 'latest' counts mined transactions, 'pending' the pool's too. */
  async nonceOf(address: string, tag: 'latest' | 'pending'): Promise<number> {
    return callNode('eth_getTransactionCount', () =>
      this.node.client.getTransactionCount({ address: address as Hex, blockTag: tag }),
    );
  }

  /** ETH and USDT held by an address, in wei and 10^-6 USDT. */
  async balancesOf(address: string): Promise<{ eth: bigint; usdt: bigint }> {
    const [eth, usdt] = await callNode('balances', () =>
      Promise.all([
        this.node.client.getBalance({ address: address as Hex }),
        this.node.client.readContract({
          address: this.node.usdtContract,
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
    return this.node.usdtContract;
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
      decimals = await this.node.client.readContract({
        address: this.node.usdtContract,
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
        `USDT_ERC20_CONTRACT: ${this.node.usdtContract} answers no decimals() on this chain (${shortMessage(err)})`,
        { cause: err },
      );
    }
    if (decimals !== expected) {
      throw new StartupError(
        `USDT_ERC20_CONTRACT: ${this.node.usdtContract} has ${decimals} decimals, USDT-ERC20 has ${expected}`,
      );
    }
  }
}
