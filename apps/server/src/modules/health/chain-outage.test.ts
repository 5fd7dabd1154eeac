import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startFakeFeeds } from '@server-test/fake-feeds';
import { createTestApp, type TestApp } from '@server-test/helpers';
import {
  killServerProcess,
  type ServerProcess,
  startServerProcess,
} from '@server-test/server-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A chain's node that hangs (accepts connections, never answers) while an instance starts:
 * the start-up check gives up after a few seconds, the instance serves and is ready, and the
 * chain is reported failing by `chain-status`, not by readiness.
 */

/** The README's Ethereum account key (the test mnemonic "test test … junk"). */
const ETH_XPUB =
  'xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';

let t: TestApp;
let feeds: Awaited<ReturnType<typeof startFakeFeeds>>;
let hung: net.Server;
let hungPort: number;
/** When the hung node was connected to: each start-up check begins with one. */
const connections: number[] = [];
const sockets = new Set<net.Socket>();
let server: ServerProcess | undefined;

beforeAll(async () => {
  feeds = await startFakeFeeds();
  t = await createTestApp({ PRICE_FEED_URL: feeds.priceFeedUrl, FX_FEED_URL: feeds.fxFeedUrl });
  // Fresh prices in the database: the instance's readiness does not wait for its feed job.
  await t.services.prices.refresh();
  hung = net.createServer((socket) => {
    connections.push(Date.now());
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  hungPort = (hung.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await killServerProcess(server);
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => hung?.close(resolve));
  await t?.close();
  await feeds?.close();
});

describe('an Ethereum node that hangs during a start', () => {
  const env = () => ({
    DATABASE_URL: t.databaseUrl,
    DATA_DIR: t.dataDir,
    COFFER_SECRET_KEY: t.secretKeyHex ?? '',
    PRICE_FEED_URL: feeds.priceFeedUrl,
    FX_FEED_URL: feeds.fxFeedUrl,
    ETH_RPC_URL: `http://127.0.0.1:${hungPort}`,
    ETH_XPUB,
    USDT_ERC20_CONTRACT: USDT,
  });

  it('holds the start up by the check’s few seconds only; the instance is ready and serves', async () => {
    server = await startServerProcess(env());
    const listening = Date.now();
    const checkBegan = connections[0];
    if (checkBegan === undefined) throw new Error('the start asked the node nothing');
    // The check gives up after 5 s (the node's own RPC timeout is 10 s).
    expect(listening - checkBegan).toBeLessThan(8_000);
    expect(server.output()).toContain('chain node did not answer the start-up check');
    expect(server.output()).toContain(
      'ETH_RPC_URL: the node did not answer the start-up check within 5 s',
    );

    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, problems: [] });
  }, 60_000);

  it('reports the chain failing in chain-status (the watcher checks it again before polling), readiness still 200', async () => {
    // The instance's watcher holds the chain's job: its poll checks the node again and fails.
    const until = Date.now() + 30_000;
    let recorded: string | undefined;
    while (Date.now() < until && !recorded) {
      const { rows } = await t.services.pool.query<{ message: string }>(
        "SELECT message FROM chain_watch_errors WHERE chain = 'ethereum' ORDER BY at DESC LIMIT 1",
      );
      recorded = rows[0]?.message;
      if (!recorded) await new Promise((r) => setTimeout(r, 500));
    }
    expect(recorded).toBe('ETH_RPC_URL: the node did not answer the start-up check within 5 s');

    // `chain-status` in its own process: its own start-up check waits the same few seconds.
    const root = path.resolve(import.meta.dirname, '../../../../..');
    // Its own hanging node, so that the instance's polls are not taken for the command's.
    const cliNode: number[] = [];
    const forCli = net.createServer((socket) => {
      cliNode.push(Date.now());
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => forCli.listen(0, '127.0.0.1', resolve));
    const cliPort = (forCli.address() as net.AddressInfo).port;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli.ts', 'chain-status'],
      {
        cwd: root,
        env: {
          ...process.env,
          ...env(),
          ETH_RPC_URL: `http://127.0.0.1:${cliPort}`,
          LOG_LEVEL: 'silent',
        },
        timeout: 60_000,
      },
    ).finally(() => {
      for (const socket of sockets) socket.destroy();
      forCli.close();
    });
    const asked = cliNode[0];
    if (asked === undefined) throw new Error('chain-status asked the node nothing');
    expect(Date.now() - asked).toBeLessThan(8_000);
    expect(stdout).toContain(
      'ethereum: FAILING: The watcher cannot start: ETH_RPC_URL: the node did not answer the start-up check within 5 s',
    );

    const ready = await fetch(`${server?.url}/api/health/ready`);
    expect(ready.status).toBe(200);
  }, 90_000);
});
