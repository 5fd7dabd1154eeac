/**
 * The chain benchmark's app process (bench/chains.ts starts it): Coffer on a fresh embedded
 * database, watching the benchmark's anvil node with the app's own Ethereum watcher (the
 * production wiring: ETH_RPC_URL, ETH_XPUB, USDT_ERC20_CONTRACT). It loads the watched
 * addresses, puts the watcher's cursor below the first busy block (a cold cursor), follows
 * the chain to `stopHeight`, then runs as the job does (a tick every CHAIN_EVERY_MS) and
 * measures its CPU when told to on standard input. Prints one JSON line per result.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { HDKey } from '@scure/bip32';
import { loadConfig } from '../apps/server/src/config';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded';
import { createLogger, openServices } from '../apps/server/src/infra';
import { CHAIN_EVERY_MS } from '../apps/server/src/jobs';
import { freePort } from '../apps/server/test/free-port';
import { paidAddress, unpaidAddress } from './chain-addresses';

type Input = {
  rpcUrl: string;
  usdt: string;
  /** How many watched addresses the chain pays (bench/chain-addresses.ts), and unpaid ones. */
  paid: number;
  unpaid: number;
  /** The cursor starts here (the block before the first busy one) and stops at `stopHeight`. */
  startHeight: number;
  startHash: string;
  stopHeight: number;
};

const input = JSON.parse(process.env.BENCH_CHAIN_INPUT ?? '{}') as Input;
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

// Any xpub will do: deposit addresses are loaded as staff-entered ones, not derived.
const xpub = HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/44'/60'/0'");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-bench-chain-'));
// The database runs as its own user (as root, embedded PostgreSQL makes one): it must get in.
fs.chmodSync(dataDir, 0o755);
const embedded = await startEmbeddedPostgres({ dir: dataDir, port: await freePort() });
const config = {
  ...loadConfig({
    DATA_DIR: dataDir,
    PORT: '3301',
    ETH_RPC_URL: input.rpcUrl,
    ETH_XPUB: xpub.publicExtendedKey,
    USDT_ERC20_CONTRACT: input.usdt,
  }),
  webDistDir: null,
};
const services = await openServices(config, embedded.url, createLogger('silent'));
const watcher = services.chainWatchers.find((w) => w.chain === 'ethereum');
if (!watcher) throw new Error('the app watches no Ethereum');
const { pool } = services;

const addresses = [
  ...Array.from({ length: input.paid }, (_, i) => paidAddress(i)),
  ...Array.from({ length: input.unpaid }, (_, i) => unpaidAddress(i)),
];
// One customer per address, loaded in bulk (the sign-up path is not what is measured).
for (let at = 0; at < addresses.length; at += 10_000) {
  await pool.query(
    `WITH a AS (SELECT address, n FROM unnest($1::text[]) WITH ORDINALITY AS t(address, n)),
     made AS (
       INSERT INTO users (email, password_hash, email_verified_at)
       SELECT 'chain' || ($2::int + n) || '@bench.coffer.test', 'x', now() FROM a
       RETURNING id, email)
     INSERT INTO deposit_addresses (user_id, asset_symbol, network, address)
     SELECT made.id, 'USDT', 'erc20', a.address
       FROM made JOIN a ON made.email = 'chain' || ($2::int + a.n) || '@bench.coffer.test'`,
    [addresses.slice(at, at + 10_000), at],
  );
}
await pool.query(
  `INSERT INTO chain_cursors (chain, height, block_hash) VALUES ('ethereum', $1, $2)`,
  [input.startHeight, input.startHash],
);

// What loading left behind is collected first, so the peaks are the watcher's.
globalThis.gc?.();
/** Resident and heap memory, sampled while the watcher works. */
const memory = { peakRss: 0, peakHeap: 0 };
const sample = () => {
  const m = process.memoryUsage();
  memory.peakRss = Math.max(memory.peakRss, m.rss);
  memory.peakHeap = Math.max(memory.peakHeap, m.heapUsed);
};
const sampler = setInterval(sample, 100);

const started = performance.now();
let height = input.startHeight;
while (height < input.stopHeight) {
  const result = await watcher.tick();
  if (result.state === 'failed') throw new Error(result.error);
  if (result.state === 'ok') height = result.height;
}
const seconds = (performance.now() - started) / 1000;
sample();
clearInterval(sampler);
// What the watcher keeps, once its garbage is collected.
globalThis.gc?.();
const retainedHeap = process.memoryUsage().heapUsed;
const { rows } = await pool.query<{ seen: number; credited: number }>(
  `SELECT count(*)::int AS seen, count(*) FILTER (WHERE status = 'credited')::int AS credited
     FROM chain_deposits`,
);
print({
  phase: 'caught-up',
  seconds,
  blocks: height - input.startHeight,
  deposits: rows[0]?.seen ?? 0,
  credited: rows[0]?.credited ?? 0,
  watched: addresses.length,
  peakRssMb: memory.peakRss / 2 ** 20,
  peakHeapMb: memory.peakHeap / 2 ** 20,
  retainedHeapMb: retainedHeap / 2 ** 20,
});

/** The database's postmaster: the process whose command line names this data directory. */
const postmaster = fs
  .readdirSync('/proc')
  .filter((p) => /^\d+$/.test(p))
  .find((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir);
    } catch {
      return false;
    }
  });

if (!postmaster) throw new Error('the benchmark database has no postmaster process');

/**
 * CPU seconds of this process and of the database's processes: the app is both. A backend
 * that ended was reaped by the postmaster, so its time is in the postmaster's children's
 * time (cutime, cstime) from then on, and the sum never drops when a connection closes.
 */
function cpuSeconds(): number {
  const own = process.cpuUsage();
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command's name: state, ppid, …; utime, stime, cutime, cstime are 14–17.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (pid === postmaster) {
        ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      } else if (fields[1] === postmaster) {
        ticks += Number(fields[11]) + Number(fields[12]);
      }
    } catch {
      // A process that ended between the listing and the read.
    }
  }
  return (own.user + own.system) / 1e6 + ticks / 100;
}

// As the job runs it: one tick every CHAIN_EVERY_MS, a tick never overlapping the last.
let stopping = false;
const following = (async () => {
  while (!stopping) {
    const result = await watcher.tick();
    if (result.state === 'failed') print({ phase: 'tick-failed', error: result.error });
    await new Promise((r) => setTimeout(r, CHAIN_EVERY_MS));
  }
})();

readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, arg] = line.trim().split(' ');
  if (command === 'measure') {
    const before = cpuSeconds();
    const at = performance.now();
    const { rows: h0 } = await pool.query('SELECT height FROM chain_cursors');
    await new Promise((r) => setTimeout(r, Number(arg) * 1000));
    const { rows: h1 } = await pool.query('SELECT height FROM chain_cursors');
    const wall = (performance.now() - at) / 1000;
    print({
      phase: 'measured',
      cpuPercent: ((cpuSeconds() - before) / wall) * 100,
      blocks: Number(h1[0]?.height) - Number(h0[0]?.height),
    });
  } else if (command === 'stop') {
    stopping = true;
    await following;
    await services.pool.end();
    await embedded.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
