import { createHash } from 'node:crypto';
import type { TAssetId } from '@coffer/shared';
import type {
  BlockRef,
  ChainAdapter,
  ChainName,
  SeenTransfer,
  WatchedLookup,
} from './chain-adapter';

/** A payment scripted into a fake block: to an address, in an asset, in minor units. */
export type FakePayment = {
  txHash: string;
  outputIndex?: number;
  to: string;
  assetId: TAssetId;
  amountMinor: bigint;
};

type FakeBlock = BlockRef & { payments: FakePayment[] };

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** A 64-hex transaction hash from a label, for tests. */
export const fakeTxHash = (label: string) => hashOf(`tx:${label}`);

/**
 * An in-memory chain for the watcher's tests and benchmarks: blocks are mined with
 * payments, the chain can be reorganised (blocks replaced from a height on), the node can
 * be made to fail, hang or report a lower tip. Addresses are matched by their lower-case
 * form; any text is an address of this chain.
 */
export function createFakeChain(chain: ChainName = 'ethereum', assets?: TAssetId[]) {
  const blocks: FakeBlock[] = [];
  let fork = 0;
  let failure: string | null = null;
  let tipOverride: number | null = null;
  let delayMs = 0;
  const calls = { tip: 0, blockAt: 0, transfersIn: 0 };

  function push(payments: FakePayment[]) {
    const height = blocks.length;
    const parent = blocks[height - 1];
    blocks.push({
      height,
      hash: hashOf(
        `${chain}:${fork}:${height}:${parent?.hash ?? ''}:${JSON.stringify(payments, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
      ),
      parentHash: parent?.hash ?? '',
      time: new Date(Date.UTC(2026, 0, 1) + height * 12_000),
      payments,
    });
  }
  push([]); // genesis

  async function answer<T>(value: () => T | Promise<T>): Promise<T> {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (failure) throw new Error(failure);
    return value();
  }

  const adapter: ChainAdapter = {
    chain,
    assets:
      assets ??
      (chain === 'bitcoin' ? ['BTC'] : chain === 'tron' ? ['USDT-TRC20'] : ['ETH', 'USDT-ERC20']),
    matchKeyOf: (address) => (address.trim() === '' ? null : address.trim().toLowerCase()),
    tip: () => {
      calls.tip++;
      return answer(() => tipOverride ?? blocks.length - 1);
    },
    blockAt: (height) => {
      calls.blockAt++;
      return answer(() => {
        const b = blocks[height];
        return b
          ? { height: b.height, hash: b.hash, parentHash: b.parentHash, time: b.time }
          : null;
      });
    },
    transfersIn: (block, lookup) => {
      calls.transfersIn++;
      return answer(async () => {
        const b = blocks[block.height];
        if (!b || b.hash !== block.hash) throw new Error(`block ${block.hash} is not on the chain`);
        const watched = await lookup(b.payments.map((p) => p.to.toLowerCase()));
        return b.payments.flatMap((p): SeenTransfer[] => {
          const key = p.to.toLowerCase();
          return watched.has(key)
            ? [
                {
                  txHash: p.txHash,
                  outputIndex: p.outputIndex ?? -1,
                  matchKey: key,
                  assetId: p.assetId,
                  amountMinor: p.amountMinor,
                },
              ]
            : [];
        });
      });
    },
  };

  return {
    adapter,
    calls,
    get height() {
      return blocks.length - 1;
    },
    /** Mines one block with these payments, or `n` empty blocks. */
    mine(payments: FakePayment[] = [], n = 1) {
      push(payments);
      for (let i = 1; i < n; i++) push([]);
    },
    /**
     * Replaces every block from `height` on with new ones (different hashes): `replacements`
     * lists the payments of each replacement block; the chain is padded with empty blocks to
     * at least its old length unless `shorter`.
     */
    reorg(height: number, replacements: FakePayment[][] = [], opts: { shorter?: boolean } = {}) {
      const length = blocks.length;
      fork++;
      blocks.length = height;
      for (const payments of replacements) push(payments);
      while (!opts.shorter && blocks.length < length) push([]);
    },
    /** The node fails every call with this message until given null. */
    fail(message: string | null) {
      failure = message;
    },
    /** The node reports this tip (a lagging or lying node) until given null. */
    reportTip(tip: number | null) {
      tipOverride = tip;
    },
    slow(ms: number) {
      delayMs = ms;
    },
  };
}

export type FakeChain = ReturnType<typeof createFakeChain>;

/** A lookup that watches exactly `keys`, for adapter tests that need no database. */
export function watchingOnly(keys: Iterable<string>): WatchedLookup {
  const set = new Set(keys);
  return async (asked) => new Set(asked.filter((k) => set.has(k)));
}
