import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError } from '@server/lib/startup-error';
import { type Anvil, startAnvil } from '@server-test/fixtures/ethereum/anvil';
import { type TestChain, testChain } from '@server-test/fixtures/ethereum/test-chain';
import { type Address, getAddress, type Hash, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScannedBlock, SeenTransfer } from './chain-adapter';
import { verifyChainConfig } from './chain-config';
import { EthereumAdapter } from './ethereum-adapter';
import { watchingOnly } from './fake-chain';

function newAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

const byTxAndIndex = (a: SeenTransfer, b: SeenTransfer) =>
  a.txHash === b.txHash ? a.outputIndex - b.outputIndex : a.txHash < b.txHash ? -1 : 1;

let anvil: Anvil;
let chain: TestChain;
let usdt: Address;
let adapter: EthereumAdapter;

beforeAll(async () => {
  anvil = await startAnvil();
  chain = testChain(anvil);
  usdt = await chain.deployToken(6);
  adapter = new EthereumAdapter({ rpcUrl: anvil.url, usdtContract: usdt });
}, 30_000);

/** Nodes a test started itself, stopped even when it fails half-way. */
const stopLater: Anvil[] = [];

afterAll(async () => {
  await Promise.all([anvil, ...stopLater].map((node) => node?.stop()));
});

describe('Ethereum adapter on anvil', () => {
  it('reads the tip and blocks as the node has them, and no block above the tip', async () => {
    await anvil.mine(3);
    const height = Number(await chain.client.getBlockNumber({ cacheTime: 0 }));
    expect(await adapter.tip()).toBe(height);

    const node = await chain.client.getBlock({ blockNumber: BigInt(height) });
    const block = await adapter.blockAt(height);
    expect(block).toEqual({
      height,
      hash: node.hash,
      parentHash: node.parentHash,
      time: new Date(Number(node.timestamp) * 1000),
    });
    const parent = await adapter.blockAt(height - 1);
    expect(parent?.hash).toBe(block?.parentHash);
    expect(await adapter.blockAt(height + 1)).toBeNull();

    await anvil.mine();
    expect(await adapter.tip()).toBe(height + 1);
  });

  it('finds exactly the ETH and USDT paid to watched addresses, with amounts and indexes', async () => {
    const [a, b, unwatched] = [newAddress(), newAddress(), newAddress()];
    const watched = watchingOnly(
      [a, b, usdt].map((x) => {
        const key = adapter.matchKeyOf(x);
        if (!key) throw new Error(`no key for ${x}`);
        return key;
      }),
    );

    const ethToA = await chain.sendEth(a, parseEther('1.5'));
    await chain.sendEth(unwatched, parseEther('0.25'));
    await chain.sendEth(b, 0n); // pays nothing: not a deposit
    // The token has no way to receive ETH: this transaction reverts and moves nothing.
    const reverted = await chain.sendEth(usdt, parseEther('2'), { gas: 100_000n });
    const usdtToB = await chain.sendToken(usdt, b, 12_345_678n);
    await chain.sendToken(usdt, unwatched, 5_000_000n);
    const batch = await chain.batchToken(usdt, [a, unwatched, b, a], [1n, 2n, 3_000_000n, 0n]);
    await anvil.mine();

    const height = await adapter.tip();
    const block = await adapter.blockAt(height);
    if (!block) throw new Error('no block');
    // Every transaction is in this one block, and the reverted one failed on the chain.
    for (const hash of [ethToA, reverted, usdtToB, batch]) {
      const receipt = await chain.client.getTransactionReceipt({ hash });
      expect(Number(receipt.blockNumber)).toBe(height);
    }
    expect((await chain.client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');

    const logIndex = async (hash: Hash, to: Address, value: bigint) => {
      const receipt = await chain.client.getTransactionReceipt({ hash });
      const found = receipt.logs.filter(
        (l) =>
          l.topics[2] &&
          getAddress(`0x${l.topics[2].slice(26)}`) === to &&
          BigInt(l.data) === value,
      );
      expect(found).toHaveLength(1);
      return Number(found[0]?.logIndex);
    };

    const seen = await adapter.transfersIn(block, watched);
    const expected: SeenTransfer[] = [
      {
        txHash: ethToA,
        outputIndex: -1,
        matchKey: a.toLowerCase(),
        assetId: 'ETH',
        amountMinor: 1_500_000_000_000_000_000n,
      },
      {
        txHash: usdtToB,
        outputIndex: await logIndex(usdtToB, b, 12_345_678n),
        matchKey: b.toLowerCase(),
        assetId: 'USDT-ERC20',
        amountMinor: 12_345_678n,
      },
      {
        txHash: batch,
        outputIndex: await logIndex(batch, a, 1n),
        matchKey: a.toLowerCase(),
        assetId: 'USDT-ERC20',
        amountMinor: 1n,
      },
      {
        txHash: batch,
        outputIndex: await logIndex(batch, b, 3_000_000n),
        matchKey: b.toLowerCase(),
        assetId: 'USDT-ERC20',
        amountMinor: 3_000_000n,
      },
    ];
    expect([...seen].sort(byTxAndIndex)).toEqual(expected.sort(byTxAndIndex));

    // Nobody watched: nothing; the next, empty block: nothing.
    expect(await adapter.transfersIn(block, watchingOnly([]))).toEqual([]);
    await anvil.mine();
    const next = await adapter.blockAt(height + 1);
    if (!next) throw new Error('no next block');
    expect(await adapter.transfersIn(next, watched)).toEqual([]);
  });

  it('finds every watched payment in busy blocks, and only those', async () => {
    const watchedList = Array.from({ length: 1_000 }, newAddress);
    const others = Array.from({ length: 200 }, newAddress);
    const watchedSet = new Set(watchedList.map((a) => a.toLowerCase()));
    const watched = watchingOnly(watchedSet);
    const first = (await adapter.tip()) + 1;
    // 20 blocks of 50 transfers each, every fifth to a watched address.
    const recipients = (b: number) =>
      Array.from({ length: 50 }, (_, i) =>
        i % 5 === 0 ? (watchedList[b * 10 + i / 5] as Address) : (others[(b + i) % 200] as Address),
      );
    await chain.fillTokenBlocks(usdt, 20, recipients);

    const perBlock: ScannedBlock[] = [];
    for (let b = 0; b < 20; b++) {
      const block = await adapter.blockAt(first + b);
      if (!block) throw new Error(`no block ${first + b}`);
      const seen = await adapter.transfersIn(block, watched);
      const logs = await chain.client.getLogs({ blockHash: block.hash as Hash });
      expect(logs).toHaveLength(50);
      // The watched ones, in the block's log order, with the node's own log indexes.
      const expected = logs
        .filter((l) => watchedSet.has(`0x${l.topics[2]?.slice(26)}`))
        .map((l) => ({
          txHash: l.transactionHash,
          outputIndex: l.logIndex,
          matchKey: `0x${l.topics[2]?.slice(26)}`,
          assetId: 'USDT-ERC20',
          amountMinor: 1_000_000n,
        }));
      expect(expected.map((e) => e.matchKey)).toEqual(
        recipients(b)
          .filter((_, i) => i % 5 === 0)
          .map((a) => a.toLowerCase()),
      );
      expect(seen).toEqual(expected);
      perBlock.push({ block, transfers: seen });
    }
    // Catching up reads the same 20 blocks in a few requests and finds exactly the same.
    expect(await adapter.scanRange(first, first + 19, watched)).toEqual(perBlock);
    // Asked past the tip, the run stops at the tip.
    const ranged = await adapter.scanRange(first + 15, first + 40, watched);
    expect(ranged.map((r) => r.block.height)).toEqual([15, 16, 17, 18, 19].map((b) => first + b));
  });

  it('ignores the same Transfer event from another contract', async () => {
    const other = await chain.deployToken(6);
    const a = newAddress();
    await chain.sendToken(other, a, 7_000_000n);
    await anvil.mine();
    const block = await adapter.blockAt(await adapter.tip());
    if (!block) throw new Error('no block');
    const logs = await chain.client.getLogs({ blockHash: block.hash as Hash });
    expect(logs).toHaveLength(1);
    expect(await adapter.transfersIn(block, watchingOnly([a.toLowerCase()]))).toEqual([]);
  });

  it('matches addresses by their lower-case form, and only valid Ethereum addresses', () => {
    const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(adapter.matchKeyOf(checksummed)).toBe(checksummed.toLowerCase());
    expect(adapter.matchKeyOf(checksummed.toLowerCase())).toBe(checksummed.toLowerCase());
    expect(adapter.matchKeyOf(checksummed.toUpperCase().replace('0X', '0x'))).toBe(
      checksummed.toLowerCase(),
    );
    // One letter's case changed: the EIP-55 checksum no longer holds.
    expect(adapter.matchKeyOf('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBeNull();
    expect(adapter.matchKeyOf('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae')).toBeNull();
    expect(adapter.matchKeyOf('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeNull();
    expect(adapter.matchKeyOf('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
    expect(adapter.matchKeyOf('')).toBeNull();
  });

  it('sees a reorg: the block at a height changes hash and content, its parent stays', async () => {
    const [a, b] = [newAddress(), newAddress()];
    const watched = watchingOnly([a.toLowerCase(), b.toLowerCase()]);
    const snapshot = await anvil.rpc<string>('evm_snapshot');
    const paidA = await chain.sendEth(a, parseEther('3'));
    await anvil.mine();
    const height = await adapter.tip();
    const before = await adapter.blockAt(height);
    if (!before) throw new Error('no block');
    expect((await adapter.transfersIn(before, watched)).map((t) => t.txHash)).toEqual([paidA]);

    // The chain replaces that block with one paying b instead.
    expect(await anvil.rpc('evm_revert', [snapshot])).toBe(true);
    const paidB = await chain.sendEth(b, parseEther('4'));
    await anvil.mine();
    expect(await adapter.tip()).toBe(height);
    const after = await adapter.blockAt(height);
    if (!after) throw new Error('no block');
    expect(after.hash).not.toBe(before.hash);
    expect(after.parentHash).toBe(before.parentHash);
    // Asked for the replaced block, the adapter answers that block's payment or throws (anvil
    // forgets the block); never "nothing" for a block it cannot read.
    const replaced = await adapter.transfersIn(before, watched).then(
      (seen) => ({ seen: seen.map((x) => x.txHash) }),
      (err: Error) => ({ error: err.message }),
    );
    if ('seen' in replaced) expect(replaced.seen).toEqual([paidA]);
    else expect(replaced.error).toMatch(/^Ethereum node: /);
    expect(await adapter.transfersIn(after, watched)).toEqual([
      {
        txHash: paidB,
        outputIndex: -1,
        matchKey: b.toLowerCase(),
        assetId: 'ETH',
        amountMinor: parseEther('4'),
      },
    ]);
  });

  it('checks at start-up that the configured contract has USDT’s 6 decimals', async () => {
    await expect(verifyChainConfig([adapter])).resolves.toBeUndefined();

    const eighteen = await chain.deployToken(18);
    const wrong = new EthereumAdapter({ rpcUrl: anvil.url, usdtContract: eighteen });
    const wrongErr = await verifyChainConfig([wrong]).catch((e: unknown) => e);
    expect(wrongErr).toBeInstanceOf(StartupError);
    expect((wrongErr as Error).message).toBe(
      `USDT_ERC20_CONTRACT: ${eighteen.toLowerCase()} has 18 decimals, USDT-ERC20 has 6`,
    );

    const noContract = newAddress();
    const none = new EthereumAdapter({ rpcUrl: anvil.url, usdtContract: noContract });
    const noneErr = await none.verifyTokenDecimals().catch((e: unknown) => e);
    expect(noneErr).toBeInstanceOf(StartupError);
    expect((noneErr as Error).message).toMatch(
      `USDT_ERC20_CONTRACT: ${noContract.toLowerCase()} answers no decimals() on this chain`,
    );

    expect(() => new EthereumAdapter({ rpcUrl: anvil.url, usdtContract: '0x1234' })).toThrow(
      /^USDT_ERC20_CONTRACT: "0x1234" is not an Ethereum address/,
    );
  });
});

describe('Ethereum adapter when the node does not answer', () => {
  it('throws from every method once the node is stopped, without the URL’s secret path', async () => {
    const node = await startAnvil();
    stopLater.push(node);
    const nodeChain = testChain(node);
    const token = await nodeChain.deployToken(6);
    const a = newAddress();
    await nodeChain.sendEth(a, 1n);
    await node.mine();
    const live = new EthereumAdapter({ rpcUrl: `${node.url}/?key=s3cret`, usdtContract: token });
    const block = await live.blockAt(await live.tip());
    if (!block) throw new Error('no block');
    expect(await live.transfersIn(block, watchingOnly([a.toLowerCase()]))).toHaveLength(1);

    await node.stop();
    const calls = [
      () => live.tip(),
      () => live.blockAt(1),
      () => live.transfersIn(block, watchingOnly([a.toLowerCase()])),
    ];
    for (const call of calls) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toMatch(/^Ethereum node: eth_\w+ failed: HTTP request failed/);
      expect(message).not.toContain('s3cret');
    }
    await expect(live.verifyTokenDecimals()).rejects.toThrow(
      /^ETH_RPC_URL: the Ethereum node did not answer/,
    );
  });

  it('sends the URL’s credentials as basic authentication, and fails without them', async () => {
    // A proxy in front of anvil that wants user "watcher", password "p@ss:word".
    const proxy = http.createServer(async (req, res) => {
      const expected = `Basic ${Buffer.from('watcher:p@ss:word').toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401).end('unauthorized');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    try {
      const authed = new EthereumAdapter({
        rpcUrl: `http://watcher:p%40ss%3Aword@127.0.0.1:${port}/`,
        usdtContract: usdt,
      });
      expect(await authed.tip()).toBe(await adapter.tip());
      const wrong = new EthereumAdapter({
        rpcUrl: `http://watcher:nope@127.0.0.1:${port}/`,
        usdtContract: usdt,
      });
      const err = await wrong.tip().catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/^Ethereum node: eth_blockNumber failed: /);
      expect((err as Error).message).not.toContain('nope');
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('throws when the node is too slow or answers with an error', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(502).end('bad gateway');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const slow = new EthereumAdapter({
        rpcUrl: `http://127.0.0.1:${port}/slow`,
        usdtContract: usdt,
        timeoutMs: 300,
      });
      await expect(slow.tip()).rejects.toThrow(
        /^Ethereum node: eth_blockNumber failed: .*took too long/,
      );
      await expect(slow.verifyTokenDecimals()).rejects.toThrow(/^ETH_RPC_URL: /);

      const failing = new EthereumAdapter({
        rpcUrl: `http://127.0.0.1:${port}/`,
        usdtContract: usdt,
      });
      await expect(failing.tip()).rejects.toThrow(/^Ethereum node: eth_blockNumber failed: /);
      await expect(failing.blockAt(1)).rejects.toThrow(
        /^Ethereum node: eth_getBlockByNumber failed: /,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
