/**
 * `npm run bench` (or `BENCH_ONLY=chain npm run bench`): the Ethereum watcher against a real
 * anvil node.
 * - Catch-up: a day of blocks (7,200), each with 50 USDT transfers to watched addresses,
 *   followed from a cold cursor by the app's own watcher: blocks and deposits per second.
 * - Memory: the same work with 1,000 and with 100,000 watched addresses (the extra ones
 *   never paid), so only the address count differs.
 * - Steady state: the app's CPU (its process and its database's) while anvil mines one such
 *   block a second, beside the same app idle.
 * The app runs in its own process (bench/chain-watcher.ts) so its memory and CPU are its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import readline from 'node:readline';
import { startAnvil } from '../apps/server/test/fixtures/ethereum/anvil';
import { testChain } from '../apps/server/test/fixtures/ethereum/test-chain';
import { paidAddress, strangerAddress } from './chain-addresses';

const BLOCKS = Number(process.env.BENCH_CHAIN_BLOCKS ?? 7_200);
const ADDRESSES = Number(process.env.BENCH_CHAIN_ADDRESSES ?? 10_000);
const PER_BLOCK = 50;
/** Of each block's transfers, how many pay watched addresses (the rest pay strangers). */
const PAID_PER_BLOCK = Math.min(PER_BLOCK, Number(process.env.BENCH_CHAIN_PAID_PER_BLOCK ?? 50));
const MEMORY_BLOCKS = Math.min(BLOCKS, Number(process.env.BENCH_CHAIN_MEMORY_BLOCKS ?? 1_500));
const STEADY_SECONDS = Number(process.env.BENCH_CHAIN_STEADY_SECONDS ?? 60);

type CaughtUp = {
  seconds: number;
  blocks: number;
  deposits: number;
  credited: number;
  watched: number;
  peakRssMb: number;
  peakHeapMb: number;
  retainedHeapMb: number;
};

function startApp(input: object): {
  child: ChildProcess;
  next(): Promise<Record<string, unknown>>;
  send(line: string): void;
} {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/chain-watcher.ts'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_CHAIN_INPUT: JSON.stringify(input) },
    },
  );
  const waiting: Array<(line: Record<string, unknown>) => void> = [];
  const lines: Record<string, unknown>[] = [];
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
    if (!l.startsWith('{')) return;
    const parsed = JSON.parse(l) as Record<string, unknown>;
    const take = waiting.shift();
    if (take) take(parsed);
    else lines.push(parsed);
  });
  const exited = new Promise<never>((_, reject) =>
    child.on('exit', (code) => reject(new Error(`the benchmark app exited (${code})`))),
  );
  exited.catch(() => {});
  return {
    child,
    next: () => {
      const ready = lines.shift();
      if (ready) return Promise.resolve(ready);
      return Promise.race([new Promise<Record<string, unknown>>((r) => waiting.push(r)), exited]);
    },
    send: (line) => child.stdin?.write(`${line}\n`),
  };
}

async function stopApp(app: ReturnType<typeof startApp>) {
  const done = new Promise((r) => app.child.once('exit', r));
  app.send('stop');
  await done;
}

const mb = (v: number) => `${v.toFixed(0)} MB`;

// Without pruning, anvil keeps every block's state and slows down block by block while the
// day is made; the watcher reads blocks, logs and receipts, which it keeps.
const anvil = await startAnvil(['--prune-history', '300']);
try {
  const chain = testChain(anvil);
  const usdt = await chain.deployToken(6);
  const start = Number(await anvil.rpc<string>('eth_blockNumber'));
  const startHash = (await anvil.rpc<{ hash: string }>('eth_getBlockByNumber', ['latest', false]))
    .hash;
  const madeAt = performance.now();
  const payees = (b: number) =>
    Array.from({ length: PER_BLOCK }, (_, i) =>
      i < PAID_PER_BLOCK
        ? paidAddress((b * PAID_PER_BLOCK + i) % ADDRESSES)
        : strangerAddress(b * PER_BLOCK + i),
    );
  await chain.fillTokenBlocks(usdt, BLOCKS, payees);
  console.log(
    `\nChain watching (anvil): ${BLOCKS.toLocaleString('en')} blocks of ${PER_BLOCK} USDT transfers, ${PAID_PER_BLOCK} of them to watched addresses, made in ${((performance.now() - madeAt) / 1000).toFixed(0)} s`,
  );
  const base = { rpcUrl: anvil.url, usdt, startHeight: start, startHash };

  // Catch-up from a cold cursor, then the steady state on the same app.
  const app = startApp({ ...base, paid: ADDRESSES, unpaid: 0, stopHeight: start + BLOCKS });
  const day = (await app.next()) as CaughtUp;
  console.log(
    `catch-up, ${day.watched.toLocaleString('en')} watched addresses: ${day.blocks} blocks in ${day.seconds.toFixed(1)} s = ${(day.blocks / day.seconds).toFixed(0)} blocks/s, ${day.deposits.toLocaleString('en')} deposits = ${(day.deposits / day.seconds).toFixed(0)} deposits/s (${day.credited.toLocaleString('en')} credited), peak RSS ${mb(day.peakRssMb)}, peak heap ${mb(day.peakHeapMb)}, heap kept ${mb(day.retainedHeapMb)}`,
  );

  let mining = true;
  let mined = 0;
  const miner = (async () => {
    while (mining) {
      const at = performance.now();
      await chain.fillTokenBlocks(usdt, 1, () => payees(BLOCKS + mined));
      mined++;
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - at))));
    }
  })();
  // Let the watcher reach the new tip before measuring.
  await new Promise((r) => setTimeout(r, 6_000));
  app.send(`measure ${STEADY_SECONDS}`);
  const busy = (await app.next()) as { cpuPercent: number; blocks: number };
  mining = false;
  await miner;
  // The same app with nothing new to follow, once the last blocks are in.
  await new Promise((r) => setTimeout(r, 10_000));
  app.send(`measure ${Math.min(20, STEADY_SECONDS)}`);
  const idle = (await app.next()) as { cpuPercent: number };
  await stopApp(app);
  console.log(
    `steady state, 1 block/s: app CPU ${busy.cpuPercent.toFixed(1)} % of one core over ${STEADY_SECONDS} s (${busy.blocks} blocks followed); idle ${idle.cpuPercent.toFixed(1)} %; added ${(busy.cpuPercent - idle.cpuPercent).toFixed(1)} %`,
  );

  // Memory: the first MEMORY_BLOCKS blocks, 1,000 paid addresses watched, then the same with
  // 99,000 more that are never paid.
  const memory: CaughtUp[] = [];
  for (const extra of [0, 99_000]) {
    const run = startApp({
      ...base,
      paid: 1_000,
      unpaid: extra,
      stopHeight: start + MEMORY_BLOCKS,
    });
    const result = (await run.next()) as CaughtUp;
    await stopApp(run);
    memory.push(result);
    console.log(
      `memory, ${result.watched.toLocaleString('en')} watched addresses, ${result.blocks} blocks (${result.deposits.toLocaleString('en')} deposits): peak RSS ${mb(result.peakRssMb)}, peak heap ${mb(result.peakHeapMb)}, heap kept ${mb(result.retainedHeapMb)}, ${(result.blocks / result.seconds).toFixed(0)} blocks/s`,
    );
  }
  const [small, large] = memory as [CaughtUp, CaughtUp];
  console.log('\nTargets:');
  console.log(`  a day of blocks caught up in under 120 s: ${day.seconds.toFixed(1)} s`);
  console.log(
    `  memory flat from 1,000 to 100,000 watched addresses: peak RSS ${mb(small.peakRssMb)} → ${mb(large.peakRssMb)} (${(large.peakRssMb / small.peakRssMb).toFixed(2)}×), heap kept ${mb(small.retainedHeapMb)} → ${mb(large.retainedHeapMb)}`,
  );
  console.log(
    `  steady state under 5 % of one core at 1 block/s: ${busy.cpuPercent.toFixed(1)} % (added over idle: ${(busy.cpuPercent - idle.cpuPercent).toFixed(1)} %)`,
  );
} finally {
  await anvil.stop();
}
