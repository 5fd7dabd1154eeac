import type { BlockRef } from './chain-adapter';

const DEFAULT_TIMEOUT_MS = 10_000;

type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at `path` in a JSON answer, or undefined where the path leaves its objects. */
export function field(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

export function isHeight(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

export function isBlockId(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9a-fA-F]{64}$/.test(v);
}

/**
 * A TronGrid-compatible HTTP API (TRON_API_URL): the node's /wallet API and the /v1 events.
 * Every failure throws with the path asked, never the URL (it may carry a key).
 */
export class TronApi {
  private readonly apiUrl: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: { apiUrl: string; apiKey?: string; timeoutMs?: number }) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey || undefined;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
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
}

/** The block at `height` on the node's chain, or null above its tip (ChainAdapter.blockAt). */
export async function blockAt(api: TronApi, height: number): Promise<BlockRef | null> {
  const block = await api.request('POST', '/wallet/getblockbynum', { num: height });
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
    time: typeof timestamp === 'number' && Number.isFinite(timestamp) ? new Date(timestamp) : null,
  };
}

/** The transactions of `block`, read again by height: it must still be that block. */
export async function blockTransactions(api: TronApi, block: BlockRef): Promise<unknown[]> {
  const body = await api.request('POST', '/wallet/getblockbynum', { num: block.height });
  const id = field(body, 'blockID');
  if (typeof id !== 'string' || id.toLowerCase() !== block.hash) {
    throw new Error(`TRON API: block ${block.height} is no longer ${block.hash}`);
  }
  const transactions = field(body, 'transactions') ?? [];
  if (!Array.isArray(transactions)) {
    throw new Error(`TRON API: getblockbynum ${block.height} answered malformed transactions`);
  }
  return transactions;
}
