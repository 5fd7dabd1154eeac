import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A Litecoin Core node in regtest, for the Bitcoin adapter's tests: its JSON-RPC is Bitcoin
 * Core's, and it prints its own address format (rltc1…), which is the point — Coffer matches
 * outputs by script. Started on a free port with its data in a temp dir; `stop()` kills it.
 */
export type LitecoinNode = {
  /** `http://user:pass@127.0.0.1:port`, as an operator would set BTC_RPC_URL. */
  rpcUrl: string;
  rpcPort: number;
  user: string;
  password: string;
  /** A JSON-RPC call; `wallet` names the wallet endpoint for wallet calls. */
  rpc<T>(method: string, params?: unknown[], wallet?: string): Promise<T>;
  /** Mines `count` blocks to the test wallet's address; their hashes. */
  mine(count: number): Promise<string[]>;
  /** Asks the node to stop and waits for its process to end. */
  stop(): Promise<void>;
  readonly exited: boolean;
};

export const WALLET = 'coffer-test';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `extraArgs` are more litecoind options, e.g. `-mempoolreplacement=1`: Litecoin Core leaves
 * BIP-125 replacement off by default where Bitcoin Core has it on.
 */
export async function startLitecoinNode(extraArgs: readonly string[] = []): Promise<LitecoinNode> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-ltc-'));
  const rpcPort = await freePort();
  const user = 'coffer';
  // A character that needs percent-encoding in a URL, so the adapter's decoding is exercised.
  const password = 'p@ss-word';
  const child: ChildProcess = spawn(
    'litecoind',
    [
      '-regtest',
      `-datadir=${dataDir}`,
      `-rpcport=${rpcPort}`,
      '-rpcbind=127.0.0.1',
      '-rpcallowip=127.0.0.1',
      `-rpcuser=${user}`,
      `-rpcpassword=${password}`,
      '-listen=0',
      '-server=1',
      '-fallbackfee=0.0002',
      '-printtoconsole=0',
      ...extraArgs,
    ],
    { stdio: 'ignore' },
  );
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let id = 0;
  async function rpc<T>(method: string, params: unknown[] = [], wallet?: string): Promise<T> {
    const url = `http://127.0.0.1:${rpcPort}${wallet ? `/wallet/${wallet}` : '/'}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
    });
    const body = (await response.json()) as { result: T; error: { message: string } | null };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  }

  const started = Date.now();
  for (;;) {
    if (exited) throw new Error('litecoind exited at start-up');
    try {
      await rpc('getblockcount');
      break;
    } catch (error) {
      if (Date.now() - started > 30_000) {
        child.kill('SIGKILL');
        throw new Error(`litecoind did not answer within 30 s: ${String(error)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await rpc('createwallet', [WALLET]);
  const minerAddress = await rpc<string>('getnewaddress', [], WALLET);

  return {
    rpcUrl: `http://${user}:${encodeURIComponent(password)}@127.0.0.1:${rpcPort}`,
    rpcPort,
    user,
    password,
    rpc,
    mine: (count) => rpc<string[]>('generatetoaddress', [count, minerAddress]),
    get exited() {
      return exited;
    },
    async stop() {
      if (!exited) {
        await rpc('stop').catch(() => undefined);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
