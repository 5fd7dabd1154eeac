import {
  BaseError,
  type BlockTag,
  type Hex,
  HttpRequestError,
  type PublicClient,
  parseAbi,
  type RpcBlock,
  TimeoutError,
  toEventSelector,
} from 'viem';

/** A block as `eth_getBlockByNumber`/`ByHash` answer it with its transactions. */
export type FullBlock = RpcBlock<BlockTag, boolean>;
export type RpcTransaction = Extract<FullBlock['transactions'][number], object>;

/** `Transfer(address indexed from, address indexed to, uint256 value)`, the ERC-20 event. */
export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
export const DECIMALS_ABI = parseAbi(['function decimals() view returns (uint8)']);
export const TOKEN_ABI = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);

/**
 * The node as the adapter's parts use it: one client, the same node with requests made
 * together sent as one JSON-RPC batch (catching up), and the USDT contract (lower-case 0x).
 */
export type EthereumNode = {
  client: PublicClient;
  batched: PublicClient;
  usdtContract: Hex;
};

/** One request; its failure says which call failed, without the node's URL (it may hold a key). */
export async function callNode<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new Error(`Ethereum node: ${method} failed: ${shortMessage(err)}`, { cause: err });
  }
}

/**
 * A node behind basic authentication is given as `https://user:pass@host/`; `fetch` refuses
 * a URL with credentials, so they travel as an `Authorization` header instead.
 */
export function withoutCredentials(rpcUrl: string): {
  url: string;
  headers: Record<string, string>;
} {
  const url = new URL(rpcUrl);
  if (!url.username && !url.password) return { url: rpcUrl, headers: {} };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const basic = Buffer.from(`${user}:${password}`).toString('base64');
  return { url: url.toString(), headers: { authorization: `Basic ${basic}` } };
}

export function isNoAnswer(err: unknown): boolean {
  return (
    err instanceof BaseError &&
    err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError) !== null
  );
}

/** viem's summary and the innermost cause, never the full message (it repeats the URL). */
export function shortMessage(err: unknown): string {
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
