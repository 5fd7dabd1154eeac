import { createHash } from 'node:crypto';
import { createBase58check, hex } from '@scure/base';
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

/** TRON's address prefix byte: every account and contract address is 0x41 + 20 bytes. */
const TRON_PREFIX = 0x41;
const USDT_DECIMALS = 6;
/** TronGrid's largest page of events. */
const PAGE_LIMIT = 200;
/**
 * A bound on one block's pages: 200 × 500 events is far beyond a real TRON block, so more
 * means an API that keeps handing back a next page, and the scan must fail, not spin.
 */
const MAX_PAGES = 500;
const DEFAULT_TIMEOUT_MS = 10_000;
/** keccak256('Transfer(address,address,uint256)'): topic 0 of a TRC-20 Transfer log. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const base58check = createBase58check(
  (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest()),
);

/**
 * The 21-byte hex form ('41' + 20 bytes, lower case) of a TRON address given as base58check
 * (`T…`) or as 42 hex digits starting 41. Null when it is neither or its checksum is wrong.
 */
export function tronHexAddress(address: string): string | null {
  const s = address.trim();
  if (/^41[0-9a-fA-F]{40}$/.test(s)) return s.toLowerCase();
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(s)) return null;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(s);
  } catch {
    return null;
  }
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) return null;
  return hex.encode(bytes);
}

/**
 * An address in an event's result: TronGrid writes them as 0x + 20 bytes (the EVM form
 * without TRON's prefix byte); other TronGrid-compatible APIs as 41-hex or base58check.
 */
function eventAddress(address: string): string | null {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return `41${address.slice(2).toLowerCase()}`;
  return tronHexAddress(address);
}

/** The base58check form (`T…`) of a 21-byte hex TRON address. */
export function tronBase58Address(hexAddress: string): string {
  const key = tronHexAddress(hexAddress);
  if (!key) throw new Error(`Not a TRON address: ${hexAddress}`);
  return base58check.encode(hex.decode(key));
}

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

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function field(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function isHeight(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isBlockId(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9a-fA-F]{64}$/.test(v);
}

/** The selectors of ERC-20's `transfer(address,uint256)` and `transferFrom(…)`, as TRC-20's. */
const TRANSFER_CALLS = ['a9059cbb', '23b872dd'];

/** A log's contract address: the node writes 20 bytes of hex without TRON's 41 prefix. */
function logAddress(address: unknown): string | null {
  if (typeof address !== 'string') return null;
  if (/^[0-9a-fA-F]{40}$/.test(address)) return `41${address.toLowerCase()}`;
  return tronHexAddress(address);
}

/**
 * TRON over a TronGrid-compatible API: blocks from the node's /wallet API, USDT-TRC20
 * deposits from the indexed `Transfer` events of the configured contract (decision 0021).
 * Every unexpected answer throws, so the watcher retries instead of reading "no deposits".
 *
 * As a payout node it only reads: TRON payouts are paid outside Coffer and completed with
 * their hash, which is checked against the transaction's receipt and Transfer logs.
 */
export class TronAdapter implements ChainAdapter, PayoutNode {
  readonly chain = 'tron' as const;
  readonly assets = ['USDT-TRC20'] as const;
  private readonly apiUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
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
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  matchKeyOf(address: string): string | null {
    return tronHexAddress(address);
  }

  async tip(): Promise<number> {
    const block = await this.request('POST', '/wallet/getnowblock', {});
    const height = field(block, 'block_header', 'raw_data', 'number');
    if (!isHeight(height)) throw new Error('TRON API: getnowblock answered without a block number');
    return height;
  }

  async blockAt(height: number): Promise<BlockRef | null> {
    const block = await this.request('POST', '/wallet/getblockbynum', { num: height });
    // The node answers an empty object for a height it does not have yet.
    if (isObject(block) && Object.keys(block).length === 0) return null;
    const raw = field(block, 'block_header', 'raw_data');
    const number = field(raw, 'number');
    const hash = field(block, 'blockID');
    const parentHash = field(raw, 'parentHash');
    const timestamp = field(raw, 'timestamp');
    if (number !== height || !isBlockId(hash) || !isBlockId(parentHash)) {
      throw new Error(`TRON API: getblockbynum ${height} answered a malformed block`);
    }
    return {
      height,
      hash: hash.toLowerCase(),
      parentHash: parentHash.toLowerCase(),
      time:
        typeof timestamp === 'number' && Number.isFinite(timestamp) ? new Date(timestamp) : null,
    };
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
      const body = await this.request(
        'GET',
        `/v1/contracts/${this.contractBase58}/events?${query}`,
      );
      if (field(body, 'success') !== true || !Array.isArray(field(body, 'data'))) {
        throw new Error(
          `TRON API: events of block ${block.height} answered without success and data`,
        );
      }
      for (const event of field(body, 'data') as unknown[]) {
        const transfer = this.transferOf(event, block.height);
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
    const body = await this.request('POST', '/wallet/getblockbynum', { num: block.height });
    const id = field(body, 'blockID');
    if (typeof id !== 'string' || id.toLowerCase() !== block.hash) {
      throw new Error(`TRON API: block ${block.height} is no longer ${block.hash}`);
    }
    const transactions = field(body, 'transactions') ?? [];
    if (!Array.isArray(transactions)) {
      throw new Error(`TRON API: getblockbynum ${block.height} answered malformed transactions`);
    }
    const calls: string[] = [];
    for (const tx of transactions) {
      const contract = field(tx, 'raw_data', 'contract');
      const call = Array.isArray(contract) ? contract[0] : undefined;
      if (field(call, 'type') !== 'TriggerSmartContract') continue;
      const target = field(call, 'parameter', 'value', 'contract_address');
      const data = field(call, 'parameter', 'value', 'data');
      if (typeof target !== 'string' || eventAddress(target) !== this.contractHex) continue;
      if (typeof data !== 'string' || !TRANSFER_CALLS.some((sel) => data.startsWith(sel))) continue;
      const ret = field(tx, 'ret');
      const outcome = Array.isArray(ret) ? field(ret[0], 'contractRet') : undefined;
      const txId = field(tx, 'txID');
      if (outcome === 'SUCCESS' && typeof txId === 'string') calls.push(txId.toLowerCase());
    }
    return calls;
  }

  /**
   * Start-up check that USDT_TRC20_CONTRACT is a 6-decimal token: a wrong contract would turn
   * every amount into a wrong credit. Calls `decimals()` without a transaction. A wrong
   * contract throws a StartupError naming the setting; no answer throws as every call does.
   */
  async verifyConfig(): Promise<void> {
    const answer = await this.request('POST', '/wallet/triggerconstantcontract', {
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
    return this.transactionInfo(hash.toLowerCase(), null);
  }

  /** The transactions of `block` staff typed (TRON has no batches, spends or sender to watch). */
  async payoutEvidence(block: BlockRef, watch: PayoutWatch): Promise<ChainTransaction[]> {
    const body = await this.request('POST', '/wallet/getblockbynum', { num: block.height });
    const id = field(body, 'blockID');
    if (typeof id !== 'string' || id.toLowerCase() !== block.hash) {
      throw new Error(`TRON API: block ${block.height} is no longer ${block.hash}`);
    }
    const transactions = field(body, 'transactions') ?? [];
    if (!Array.isArray(transactions)) {
      throw new Error(`TRON API: getblockbynum ${block.height} answered malformed transactions`);
    }
    const found: ChainTransaction[] = [];
    for (const tx of transactions) {
      const txId = field(tx, 'txID');
      if (typeof txId !== 'string' || !watch.hashes.has(txId.toLowerCase())) continue;
      const read = await this.transactionInfo(txId.toLowerCase(), block);
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

  /** Coffer holds no TRON key and never sends: staff pay outside Coffer and give the hash. */
  async broadcast(_signedHex: string): Promise<'sent' | 'known'> {
    throw new Error('Coffer does not send TRON transactions: TRON payouts are paid by hand');
  }

  /** Nothing of Coffer's ever waits to be sent on TRON. */
  async inMempool(_hash: string): Promise<boolean> {
    return false;
  }

  /**
   * One transaction's receipt as payouts read it. `inBlock` is the block it was found in
   * (saves asking for that block again); otherwise its block is read for the block's hash.
   */
  private async transactionInfo(
    hash: string,
    inBlock: BlockRef | null,
  ): Promise<ChainTransaction | null> {
    const info = await this.request('POST', '/wallet/gettransactioninfobyid', { value: hash });
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
        const at = await this.blockAt(number);
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
      const payment = this.paymentOf(log, hash, index);
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

  /** A receipt's log as a Transfer of the configured token; null for any other log. */
  private paymentOf(log: unknown, hash: string, index: number): SeenTransfer | null {
    if (logAddress(field(log, 'address')) !== this.contractHex) return null;
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

  /** One event as a transfer of this contract in this block; throws on a malformed one. */
  private transferOf(event: unknown, height: number): SeenTransfer | null {
    if (field(event, 'event_name') !== 'Transfer') return null;
    const contract = field(event, 'contract_address');
    if (typeof contract !== 'string' || eventAddress(contract) !== this.contractHex) return null;
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

  /** Why a request got no answer, without the URL (TRON_API_URL may carry a key). */
  private failureOf(err: unknown): string {
    if (err instanceof Error && err.name === 'TimeoutError') {
      return `no answer within ${this.timeoutMs} ms`;
    }
    // fetch's own message is "fetch failed"; the reason is its cause (ECONNREFUSED, a reset).
    const cause = err instanceof Error ? err.cause : undefined;
    const code = cause instanceof Error && 'code' in cause ? cause.code : undefined;
    if (typeof code === 'string') return `the connection failed (${code})`;
    return err instanceof Error ? err.message : String(err);
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.apiKey) headers['TRON-PRO-API-KEY'] = this.apiKey;
    const what = `TRON API ${path.split('?')[0]}`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.apiUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      throw new Error(`${what}: ${this.failureOf(err)}`);
    }
    if (!res.ok) throw new Error(`${what}: HTTP ${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${what}: the answer is not JSON`);
    }
    // The node's /wallet API reports some failures as 200 with an Error field.
    const error = field(json, 'Error');
    if (typeof error === 'string') throw new Error(`${what}: ${error}`);
    return json;
  }
}
