/**
 * `npm run bench`: load figures for Coffer's hot paths, each printed beside a bare Fastify
 * route measured in the same run on the same machine, so a ratio means the same on any
 * hardware. Prints figures; asserts nothing (targets are printed beside them).
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { startChildServer } from './child-server';
import { type ScenarioSpec, SIZE_COLUMNS } from './scenarios';
import { startupBenchmark } from './startup';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/**
 * Only the scenarios whose name contains this text (e.g. `BENCH_ONLY=admin`); all if unset.
 * `BENCH_ONLY=chain`, `realtime`, `signin-flood`, `payouts` or `startup` runs only that
 * benchmark. `BENCH_ROWS=1000,100000` shortens the history sizes (default up to 1,000,000).
 */
const ONLY = process.env.BENCH_ONLY ?? '';
const chosen = (name: string) => name.includes(ONLY);
/** The back-office screens are measured at the load a few operators make. */
const ADMIN_CONNECTIONS = 20;

type Scenario = ScenarioSpec & { cookie: string; same: string[] };
type Ready = { appPort: number; barePort: number; scenarios: Scenario[] };
type Figures = {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
};

/** The q-th quantile of sorted latencies (nearest rank), in whole milliseconds. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, at)] ?? 0) * 10) / 10;
}

async function measure(
  base: string,
  paths: string[],
  headers: Record<string, string>,
  seconds = DURATION,
  connections = CONNECTIONS,
): Promise<Figures> {
  // Every response's latency is kept, so the percentiles are exact rather than the
  // summary's nearest buckets (it has no p95).
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: seconds,
        requests: paths.map((path) => ({ method: 'GET', path, headers })),
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => {
      latencies.push(ms);
    });
  });
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const ms = (v: number) => `${String(v).padStart(6)} ms`;

/** One scenario: its figures, its same-work yardstick's, and the ratios to both yardsticks. */
function row(name: string, f: Figures, same: Figures, bare: Figures): string {
  const bad = f.errors + f.non2xx > 0 ? `  (!) ${f.errors} errors, ${f.non2xx} non-2xx` : '';
  return [
    name.padEnd(48),
    `${f.rps.toFixed(0).padStart(6)} req/s  p50 ${ms(f.p50)}  p99 ${ms(f.p99)}`,
    `| same work ${same.rps.toFixed(0).padStart(6)} req/s  p99 ${ms(same.p99)}`,
    `| ${(f.rps / same.rps).toFixed(2)} of same work, ${(f.rps / bare.rps).toFixed(2)} of one SELECT${bad}`,
  ].join('  ');
}

/** The HTTP scenarios (bench/scenarios.ts), on the benchmark's loaded server (bench/server.ts). */
async function httpBenchmarks() {
  const server = await startChildServer<Ready>('bench/server.ts');
  try {
    const { appPort, barePort } = server.ready;
    const app = `http://127.0.0.1:${appPort}`;
    const bareBase = `http://127.0.0.1:${barePort}`;
    console.log(
      `Coffer benchmarks: ${CONNECTIONS} connections (back office ${ADMIN_CONNECTIONS}), ${DURATION} s each, after warm-ups; load average ${loadavg()}\n`,
    );
    await measure(bareBase, ['/bare'], {}, 2);
    const bare = await measure(bareBase, ['/bare'], {});
    console.log(
      `${'bare Fastify + one indexed SELECT'.padEnd(48)}  ${bare.rps.toFixed(0).padStart(6)} req/s  p50 ${ms(bare.p50)}  p99 ${ms(bare.p99)}\n`,
    );
    const results = new Map<string, { f: Figures; same: Figures }>();
    let section = '';
    for (const s of server.ready.scenarios.filter((x) => chosen(x.name))) {
      const heading = s.size ? 'History size' : s.admin ? 'Back office' : 'Customer';
      if (heading !== section) {
        section = heading;
        console.log(`${heading}:`);
      }
      const connections = s.admin ? ADMIN_CONNECTIONS : CONNECTIONS;
      const headers = { cookie: s.cookie };
      await measure(app, s.paths, headers, 1, connections);
      const f = await measure(app, s.paths, headers, DURATION, connections);
      await measure(bareBase, s.same, {}, 1, connections);
      const same = await measure(bareBase, s.same, {}, DURATION, connections);
      results.set(s.name, { f, same });
      console.log(row(s.name, f, same, bare));
    }

    console.log('\nTargets:');
    for (const s of server.ready.scenarios.filter((x) => x.sameWorkTarget)) {
      const r = results.get(s.name);
      if (r) console.log(`  ${s.name}: >= 0.70 of same work: ${(r.f.rps / r.same.rps).toFixed(2)}`);
    }
    const history = server.ready.scenarios.find((x) => x.who === 'heavy');
    const h = history && results.get(history.name);
    if (h) {
      console.log(
        `  history page p99 <= 2x its same work's: ${h.f.p99} ms vs ${h.same.p99} ms (${(h.f.p99 / h.same.p99).toFixed(2)}x)`,
      );
    }
    sizeTable(server.ready.scenarios, results);
  } finally {
    await server.stop();
  }
}

/** Requests per second (p99) by history size; the target: every column within 1.5x. */
function sizeTable(list: Scenario[], results: Map<string, { f: Figures }>) {
  const sizes = [...new Set(list.flatMap((s) => (s.size ? [s.size] : [])))];
  if (sizes.length === 0) return;
  const cell = (size: number, column: string) => {
    const s = list.find((x) => x.size === size && x.column === column);
    return s ? results.get(s.name)?.f : undefined;
  };
  console.log(`\nBy history size: req/s (p99)`);
  console.log(`${'ledger rows'.padEnd(12)}${SIZE_COLUMNS.map((c) => c.padStart(22)).join('')}`);
  for (const size of sizes) {
    const cells = SIZE_COLUMNS.map((c) => {
      const f = cell(size, c);
      return (f ? `${f.rps.toFixed(0)} (${f.p99} ms)` : '-').padStart(22);
    });
    console.log(`${size.toLocaleString('en').padEnd(12)}${cells.join('')}`);
  }
  let worst = { ratio: 1, column: '' };
  for (const c of SIZE_COLUMNS) {
    const rps = sizes.flatMap((size) => cell(size, c)?.rps ?? []);
    if (rps.length < 2) continue;
    // A size that served nothing in time is as far from the others as it gets.
    const ratio =
      Math.min(...rps) > 0 ? Math.max(...rps) / Math.min(...rps) : Number.POSITIVE_INFINITY;
    if (ratio > worst.ratio) worst = { ratio, column: c };
  }
  const shown = Number.isFinite(worst.ratio)
    ? `${worst.ratio.toFixed(2)}x`
    : 'unbounded (a size served nothing in time)';
  console.log(
    `Worst ratio across sizes: ${shown}${worst.column ? ` (${worst.column})` : ''} (target <= 1.5x)`,
  );
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// The HTTP figures, unless only a benchmark with a server of its own was asked for.
if (!['chain', 'realtime', 'signin-flood', 'payouts', 'startup'].includes(ONLY)) {
  await httpBenchmarks();
}
// Start-up of a built tree: Coffer to its first page, beside PostgreSQL's own start.
if (chosen('startup')) await startupBenchmark();

// Realtime: websocket delivery under load, with a server of its own (bench/realtime.ts).
if (chosen('realtime')) await import('./realtime');
// Chains: the Ethereum watcher against anvil (bench/chains.ts).
if (chosen('chain')) await import('./chains');
// Sign-in under a flood of strangers' sign-ins, with a server of its own (bench/signin-flood.ts).
if (chosen('signin-flood')) await import('./signin-flood');

// Payouts: building and checking 500-payout batches, no node (bench/payouts.ts).
if (chosen('payouts')) await import('./payouts');
