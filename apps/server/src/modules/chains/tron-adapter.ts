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
import { tronBase58Address, tronHexAddress } from './tron-address';
import { blockAt, blockTransactions, field, isHeight, TronApi } from './tron-api';
import { successfulTokenCall, transferOfEvent } from './tron-decode';
import { payoutEvidence, type TronReader, transactionInfo } from './tron-payout-reads';

const USDT_DECIMALS = 6;
/** TronGrid's largest page of events. */
const PAGE_LIMIT = 200;
/**
 * A bound on one block's pages: 200 × 500 events is far beyond a real TRON block, so more
 * means an API that keeps handing back a next page, and the scan must fail, not spin.
 */
const MAX_PAGES = 500;

export type TronAdapterOptions = {
  /** TRON_API_URL: a TronGrid-compatible HTTP API (the node's /wallet API and /v1 events). */
  apiUrl: string;
  /** USDT_TRC20_CONTRACT, base58check or hex. */
  usdtContract: string;
  /** Sent as TRON-PRO-API-KEY when set (TronGrid's key). */
  apiKey?: string;
  /** How long one request may take before it counts as no answer. */
  timeoutMs?: number;
};

/**
 * TRON over a TronGrid-compatible API: blocks from the node's /wallet API, USDT-TRC20
 * deposits from the indexed `Transfer` events of the configured contract (decision 0021).
 * Every unexpected answer throws, so the watcher retries instead of reading "no deposits".
 *
 * As a payout node it only reads: TRON payouts are paid outside Coffer and completed with
 * their hash, which is checked against the transaction's receipt and Transfer logs.
 *
 * Its parts: addresses (`tron-address.ts`), the API and its answers (`tron-api.ts`), events
 * and logs read as transfers (`tron-decode.ts`), payout transactions (`tron-payout-reads.ts`).
 */
export class TronAdapter implements ChainAdapter, PayoutNode {
  readonly chain = 'tron' as const;
  readonly assets = ['USDT-TRC20'] as const;
  private readonly api: TronApi;
  /** The contract's 21-byte hex form, to compare with what the API reports. */
  private readonly contractHex: string;
  private readonly contractBase58: string;

  constructor(options: TronAdapterOptions) {
    const contractHex = tronHexAddress(options.usdtContract);
    if (!contractHex) {
      throw new StartupError(`USDT_TRC20_CONTRACT is not a TRON address: ${options.usdtContract}`);
    }
    this.contractHex = contractHex;
    this.contractBase58 = tronBase58Address(contractHex);
    this.api = new TronApi(options);
  }

  private get reader(): TronReader {
    return { api: this.api, contractHex: this.contractHex };
  }

  matchKeyOf(address: string): string | null {
    return tronHexAddress(address);
  }

  async tip(): Promise<number> {
    const block = await this.api.request('POST', '/wallet/getnowblock', {});
    const height = field(block, 'block_header', 'raw_data', 'number');
    if (!isHeight(height)) throw new Error('TRON API: getnowblock answered without a block number');
    return height;
  }

  blockAt(height: number): Promise<BlockRef | null> {
    return blockAt(this.api, height);
  }

  async transfersIn(block: BlockRef, lookup: WatchedLookup): Promise<SeenTransfer[]> {
    const expected = await this.tokenCallsIn(block);
    const all: SeenTransfer[] = [];
    // Not only_confirmed: the watcher counts confirmations itself, and a block TronGrid has not
    // solidified yet would otherwise be scanned as empty and never looked at again.
    const query = new URLSearchParams({
      event_name: 'Transfer',
      block_number: String(block.height),
      limit: String(PAGE_LIMIT),
    });
    const seenPages = new Set<string>();
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) {
        throw new Error(
          `TRON API: more than ${MAX_PAGES} pages of events for block ${block.height}`,
        );
      }
      const body = await this.api.request(
        'GET',
        `/v1/contracts/${this.contractBase58}/events?${query}`,
      );
      if (field(body, 'success') !== true || !Array.isArray(field(body, 'data'))) {
        throw new Error(
          `TRON API: events of block ${block.height} answered without success and data`,
        );
      }
      for (const event of field(body, 'data') as unknown[]) {
        const transfer = transferOfEvent(event, block.height, this.contractHex);
        if (transfer) all.push(transfer);
      }
      const fingerprint = field(body, 'meta', 'fingerprint');
      if (fingerprint === undefined || fingerprint === null || fingerprint === '') break;
      if (typeof fingerprint !== 'string' || seenPages.has(fingerprint)) {
        throw new Error(
          `TRON API: events of block ${block.height} gave a bad next-page fingerprint`,
        );
      }
      seenPages.add(fingerprint);
      query.set('fingerprint', fingerprint);
    }
    // TronGrid's event index trails its node: a block it has not indexed yet answers no
    // events. A successful transfer call to the token with no event means exactly that; the
    // block is read again later rather than passed over as empty.
    const withEvents = new Set(all.map((t) => t.txHash));
    const missing = expected.find((txId) => !withEvents.has(txId));
    if (missing) {
      throw new Error(
        `TRON API: the events of block ${block.height} are not indexed yet (transaction ${missing} has none); trying again`,
      );
    }
    const watched = await lookup([...new Set(all.map((t) => t.matchKey))]);
    return all.filter((t) => watched.has(t.matchKey));
  }

  /**
   * The transactions of `block` that called the token's `transfer` or `transferFrom` and
   * succeeded: each emitted a Transfer event the events API must show.
   */
  private async tokenCallsIn(block: BlockRef): Promise<string[]> {
    const calls: string[] = [];
    for (const tx of await blockTransactions(this.api, block)) {
      const txId = successfulTokenCall(tx, this.contractHex);
      if (txId) calls.push(txId);
    }
    return calls;
  }

  /**
   * Start-up check that USDT_TRC20_CONTRACT is a 6-decimal token: a wrong contract would turn
   * every amount into a wrong credit. Calls `decimals()` without a transaction. A wrong
   * contract throws a StartupError naming the setting; no answer throws as every call does.
   */
  async verifyConfig(): Promise<void> {
    const answer = await this.api.request('POST', '/wallet/triggerconstantcontract', {
      owner_address: this.contractBase58,
      contract_address: this.contractBase58,
      function_selector: 'decimals()',
      parameter: '',
      visible: true,
    });
    const result = field(answer, 'constant_result');
    const word = Array.isArray(result) ? result[0] : undefined;
    if (
      field(answer, 'result', 'result') !== true ||
      typeof word !== 'string' ||
      !/^[0-9a-fA-F]{64}$/.test(word)
    ) {
      throw new StartupError(
        `USDT_TRC20_CONTRACT ${this.contractBase58}: decimals() could not be read; is it a TRC-20 contract?`,
      );
    }
    const decimals = BigInt(`0x${word}`);
    if (decimals !== BigInt(USDT_DECIMALS)) {
      throw new StartupError(
        `USDT_TRC20_CONTRACT ${this.contractBase58} has ${decimals} decimals; USDT-TRC20 has ${USDT_DECIMALS}`,
      );
    }
  }

  // ----------------------------------------------------------------- payouts

  /**
   * A transaction by id from its receipt (`gettransactioninfobyid`), or null when the API
   * does not know it: the node has a receipt only once the transaction is in a block, so a
   * known one always has a block. Its payments are the configured token's Transfer logs.
   * The API finds any transaction by id, so the recent blocks are not needed.
   */
  async findTransaction(
    hash: string,
    _recentBlocks: readonly string[] = [],
  ): Promise<ChainTransaction | null> {
    return transactionInfo(this.reader, hash.toLowerCase(), null);
  }

  /** The transactions of `block` staff typed (TRON has no batches, spends or sender to watch). */
  payoutEvidence(block: BlockRef, watch: PayoutWatch): Promise<ChainTransaction[]> {
    return payoutEvidence(this.reader, block, watch);
  }

  /** Coffer holds no TRON key and never sends: staff pay outside Coffer and give the hash. */
  async broadcast(_signedHex: string): Promise<'sent' | 'known'> {
    throw new Error('Coffer does not send TRON transactions: TRON payouts are paid by hand');
  }

  /** Nothing of Coffer's ever waits to be sent on TRON. */
  async inMempool(_hash: string): Promise<boolean> {
    return false;
  }
}
