import { hex } from '@scure/base';
import { Address, NETWORK, OutScript, RawTx, TEST_NETWORK } from '@scure/btc-signer';
import { StartupError } from '@server/lib/startup-error';
import type {
  BlockRef,
  ChainAdapter,
  ChainTransaction,
  PayoutNode,
  PayoutWatch,
  SeenTransfer,
  WatchedLookup,
} from './chain-adapter';

/**
 * Bitcoin over Bitcoin Core's JSON-RPC (docs/decisions/0021). Outputs are matched by their
 * script, never by the node's address string: another Bitcoin-family node (Litecoin Core in
 * the tests) prints its own address format for the same script.
 */

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'regtest';

type NetworkParams = Parameters<typeof Address>[0];

/** Address formats per `BTC_NETWORK`; signet shares testnet's. */
const NETWORKS: Record<BitcoinNetwork, NetworkParams> = {
  mainnet: NETWORK,
  testnet: TEST_NETWORK,
  // Bitcoin Core's chainparams for regtest: bech32 `bcrt`, base58 versions as testnet's.
  regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
};

/** An error the node answered with (its JSON-RPC `error`), e.g. -8 for a height above the tip. */
export class BitcoinRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | null,
    message: string,
    /** The node answered 401/403: the URL's user or password is wrong. */
    readonly refusedCredentials = false,
  ) {
    super(`Bitcoin node: ${method} failed: ${message}${code === null ? '' : ` (code ${code})`}`);
    this.name = 'BitcoinRpcError';
  }
}

/** `getblockchaininfo`'s `chain` per `BTC_NETWORK` (signet and testnet4 write test addresses). */
const NODE_CHAINS: Record<BitcoinNetwork, readonly string[]> = {
  mainnet: ['main'],
  testnet: ['test', 'testnet4', 'signet'],
  regtest: ['regtest'],
};

/** Bitcoin Core's RPC_INVALID_PARAMETER: what getblockhash answers for a height above the tip. */
const RPC_INVALID_PARAMETER = -8;

export type BitcoinAdapterOptions = {
  /** `http://user:pass@host:port` (credentials optional; percent-encoded as in any URL). */
  rpcUrl: string;
  network: BitcoinNetwork;
  /** How long one call may take before it counts as no answer. */
  timeoutMs?: number;
};

type RpcHeader = { hash: string; height: number; previousblockhash?: string; time: number };
type RpcTx = {
  txid: string;
  hex: string;
  vin: { coinbase?: string; txid?: string; vout?: number }[];
  vout: { n: number; scriptPubKey: { hex: string } }[];
  blockhash?: string;
};
type RpcBlock = { hash: string; height: number; tx: RpcTx[] };

/** Bitcoin Core's RPC_INVALID_ADDRESS_OR_KEY: no such transaction (here, or in that block). */
const RPC_NOT_FOUND = -5;
/** RPC_VERIFY_ALREADY_IN_CHAIN: sendrawtransaction of a transaction already mined. */
const RPC_ALREADY_IN_CHAIN = -27;

/** The parent of the genesis block, as the chain itself writes it. */
const NO_PARENT = '0'.repeat(64);

export class BitcoinAdapter implements ChainAdapter, PayoutNode {
  readonly chain = 'bitcoin' as const;
  readonly assets = ['BTC'] as const;
  private readonly url: string;
  private readonly authorization: string | null;
  private readonly network: BitcoinNetwork;
  private readonly params: NetworkParams;
  private readonly timeoutMs: number;
  private nextId = 1;

  constructor(options: BitcoinAdapterOptions) {
    const params = NETWORKS[options.network];
    if (!params) throw new Error(`Unknown Bitcoin network "${options.network}"`);
    this.network = options.network;
    this.params = params;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    let url: URL;
    try {
      url = new URL(options.rpcUrl);
    } catch {
      throw new Error('The Bitcoin RPC URL is not a valid URL');
    }
    // fetch refuses a URL with credentials, and Bitcoin Core wants them as Basic auth anyway.
    this.authorization =
      url.username || url.password
        ? `Basic ${Buffer.from(
            `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`,
          ).toString('base64')}`
        : null;
    url.username = '';
    url.password = '';
    this.url = url.toString();
  }

  matchKeyOf(address: string): string | null {
    try {
      return hex.encode(OutScript.encode(Address(this.params).decode(address.trim())));
    } catch {
      return null;
    }
  }

  async tip(): Promise<number> {
    return this.call<number>('getblockcount', []);
  }

  async blockAt(height: number): Promise<BlockRef | null> {
    if (!Number.isSafeInteger(height) || height < 0) {
      throw new RangeError(`Not a block height: ${height}`);
    }
    let hash: string;
    try {
      hash = await this.call<string>('getblockhash', [height]);
    } catch (error) {
      if (error instanceof BitcoinRpcError && error.code === RPC_INVALID_PARAMETER) return null;
      throw error;
    }
    // By hash, so a reorg between the two calls still gives one block's own parent.
    const header = await this.call<RpcHeader>('getblockheader', [hash, true]);
    return {
      height: header.height,
      hash: header.hash,
      parentHash: header.previousblockhash ?? NO_PARENT,
      time: new Date(header.time * 1000),
    };
  }

  async transfersIn(block: BlockRef, lookup: WatchedLookup): Promise<SeenTransfer[]> {
    // Verbosity 2: every transaction with its outputs' scripts and its raw hex.
    const full = await this.call<RpcBlock>('getblock', [block.hash, 2]);
    if (full.hash !== block.hash) {
      throw new BitcoinRpcError(
        'getblock',
        null,
        `asked for block ${block.hash}, got ${full.hash}`,
      );
    }
    // A coinbase output cannot be spent for 100 blocks and vanishes with its block: a
    // custodial credit after a few confirmations would be an advance on coins that may
    // never exist. Mining to a deposit address is not a deposit.
    const paying = full.tx.filter((tx) => !tx.vin.some((input) => input.coinbase !== undefined));
    const watched = await lookup([
      ...new Set(paying.flatMap((tx) => tx.vout.map((out) => out.scriptPubKey.hex))),
    ]);
    const found: SeenTransfer[] = [];
    for (const tx of paying) {
      const matching = tx.vout.filter((out) => watched.has(out.scriptPubKey.hex));
      if (matching.length === 0) continue;
      // The JSON `value` is a float; the amount is read from the transaction's own bytes.
      const raw = RawTx.decode(hex.decode(tx.hex));
      for (const out of matching) {
        const output = raw.outputs[out.n];
        if (!output || hex.encode(output.script) !== out.scriptPubKey.hex) {
          throw new BitcoinRpcError(
            'getblock',
            null,
            `output ${tx.txid}:${out.n} does not match its hex`,
          );
        }
        found.push({
          txHash: tx.txid,
          outputIndex: out.n,
          matchKey: out.scriptPubKey.hex,
          assetId: 'BTC',
          amountMinor: output.amount,
        });
      }
    }
    return found;
  }

  /** Every output of a transaction, its amount read from the transaction's own bytes. */
  private readTx(tx: RpcTx, block: ChainTransaction['block']): ChainTransaction {
    const raw = RawTx.decode(hex.decode(tx.hex));
    return {
      hash: tx.txid,
      block,
      from: null,
      nonce: null,
      success: true,
      payments: raw.outputs.map((out, n) => ({
        txHash: tx.txid,
        outputIndex: n,
        matchKey: hex.encode(out.script),
        assetId: 'BTC' as const,
        amountMinor: out.amount,
      })),
      spends: tx.vin.flatMap((i) => (i.txid !== undefined ? [`${i.txid}:${i.vout}`] : [])),
      feeMinor: null,
    };
  }

  async payoutEvidence(block: BlockRef, watch: PayoutWatch): Promise<ChainTransaction[]> {
    const full = await this.call<RpcBlock>('getblock', [block.hash, 2]);
    const at = { height: full.height, hash: full.hash };
    return full.tx
      .filter(
        (tx) =>
          watch.hashes.has(tx.txid) ||
          tx.vin.some((i) => i.txid !== undefined && watch.outpoints.has(`${i.txid}:${i.vout}`)),
      )
      .map((tx) => this.readTx(tx, at));
  }

  async findTransaction(
    hash: string,
    recentBlocks: readonly string[],
  ): Promise<ChainTransaction | null> {
    const found = async (params: unknown[]) => {
      try {
        return await this.call<RpcTx>('getrawtransaction', params);
      } catch (error) {
        if (error instanceof BitcoinRpcError && error.code === RPC_NOT_FOUND) return null;
        throw error;
      }
    };
    // The mempool (or any block, on a node with -txindex) first, then the recent blocks.
    let tx = await found([hash, true]);
    let blockHash = tx?.blockhash ?? null;
    for (const candidate of tx ? [] : recentBlocks) {
      tx = await found([hash, true, candidate]);
      if (tx) {
        blockHash = candidate;
        break;
      }
    }
    if (!tx) return null;
    if (!blockHash) return this.readTx(tx, null);
    const header = await this.call<RpcHeader & { confirmations: number }>('getblockheader', [
      blockHash,
      true,
    ]);
    // A block no longer on the node's chain does not count.
    return this.readTx(
      tx,
      header.confirmations >= 1 ? { height: header.height, hash: blockHash } : null,
    );
  }

  async broadcast(signedHex: string): Promise<'sent' | 'known'> {
    try {
      await this.call<string>('sendrawtransaction', [signedHex]);
      return 'sent';
    } catch (error) {
      if (
        error instanceof BitcoinRpcError &&
        (error.code === RPC_ALREADY_IN_CHAIN ||
          /already in (the )?mempool|txn-already-known/i.test(error.message))
      ) {
        return 'known';
      }
      throw error;
    }
  }

  async inMempool(hash: string): Promise<boolean> {
    try {
      await this.call('getmempoolentry', [hash]);
      return true;
    } catch (error) {
      if (error instanceof BitcoinRpcError && error.code === RPC_NOT_FOUND) return false;
      throw error;
    }
  }

  /**
   * The fee rate (sat/vB) the node expects to confirm within `targetBlocks`; without an
   * estimate (a fresh node, regtest), the lowest its mempool relays.
   */
  async feeRate(targetBlocks: number): Promise<number> {
    const estimate = await this.call<{ feerate?: number }>('estimatesmartfee', [targetBlocks]);
    const perKvB =
      estimate.feerate ??
      (await this.call<{ mempoolminfee: number }>('getmempoolinfo', [])).mempoolminfee;
    // BTC per 1,000 vB → sat per vB, whole and at least 1.
    return Math.max(1, Math.ceil((perKvB * 1e8) / 1000));
  }

  /** Whether an output is unspent, counting spends waiting in the mempool. */
  async isUnspent(txid: string, vout: number): Promise<boolean> {
    return (await this.call<unknown>('gettxout', [txid, vout, true])) !== null;
  }

  /**
   * The start-up check: the node takes the credentials and follows the network BTC_NETWORK
   * names, so addresses are not written for one chain while another is watched. A node that
   * does not answer throws as every call does (the watcher retries; it is not a setting).
   */
  async verifyConfig(): Promise<void> {
    let info: { chain: string };
    try {
      info = await this.call<{ chain: string }>('getblockchaininfo', []);
    } catch (error) {
      if (error instanceof BitcoinRpcError && error.refusedCredentials) {
        throw new StartupError(
          'BTC_RPC_URL: the Bitcoin node refused the user and password in the URL',
        );
      }
      throw error;
    }
    if (!NODE_CHAINS[this.network].includes(info.chain)) {
      throw new StartupError(
        `BTC_NETWORK is ${this.network} but the node at BTC_RPC_URL follows the "${info.chain}" chain`,
      );
    }
  }

  private async call<T>(method: string, params: unknown[]): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.authorization) headers.authorization = this.authorization;
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '1.0', id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? (error.cause ?? error).toString() : String(error);
      throw new BitcoinRpcError(method, null, `no answer from the node (${reason})`);
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new BitcoinRpcError(
        method,
        null,
        `the node refused the RPC credentials (HTTP ${response.status}); check the user and password in the RPC URL`,
        true,
      );
    }
    // Bitcoin Core answers RPC errors with 404/500 and a JSON body; anything else is not it.
    let body: { result?: T; error?: { code: number; message: string } | null };
    try {
      body = (await response.json()) as typeof body;
    } catch {
      throw new BitcoinRpcError(method, null, `HTTP ${response.status} without a JSON-RPC answer`);
    }
    if (body.error) throw new BitcoinRpcError(method, body.error.code, body.error.message);
    if (!response.ok || body.result === undefined) {
      throw new BitcoinRpcError(method, null, `HTTP ${response.status} without a result`);
    }
    return body.result;
  }
}
