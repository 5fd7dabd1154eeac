/**
 * `npm run bench`: load figures for Coffer's hot paths, each printed beside a bare Fastify
 * route measured in the same run on the same machine, so a ratio means the same on any
 * hardware. Prints figures; asserts nothing (targets are printed beside them).
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { startChildServer } from './child-server';
import { type ScenarioSpec, SIZE_COLUMNS, sizeLabel } from './scenarios';
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

/** One stretch of load: every response's latency, and the run's totals. */
type Sample = {
  latencies: number[];
  requests: number;
  seconds: number;
  errors: number;
  non2xx: number;
};

async function load(
  base: string,
  paths: string[],
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<Sample> {
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
  // Requests still in the server when the stretch ended are finished before the next one
  // starts, so that one stretch's tail does not weigh on the next route's figures.
  const sorted = [...latencies].sort((a, b) => a - b);
  await new Promise((done) => setTimeout(done, Math.min(1_000, 2 * quantile(sorted, 0.99))));
  return {
    latencies,
    requests: result.requests.total,
    seconds: result.duration,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function figuresOf(samples: Sample[]): Figures {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const sum = (key: 'requests' | 'seconds' | 'errors' | 'non2xx') =>
    samples.reduce((total, s) => total + s[key], 0);
  return {
    rps: sum('requests') / sum('seconds'),
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    errors: sum('errors'),
    non2xx: sum('non2xx'),
  };
}

async function measure(
  base: string,
  paths: string[],
  headers: Record<string, string>,
  seconds = DURATION,
  connections = CONNECTIONS,
): Promise<Figures> {
  return figuresOf([await load(base, paths, headers, seconds, connections)]);
}

/** Alternations of the routes compared in one measurement. */
const ROUNDS = 5;

type Target = { base: string; paths: string[]; headers: Record<string, string> };

/**
 * Routes compared with each other, measured in turns (ROUNDS stretches each, DURATION seconds
 * in all for each) rather than one after the other: whatever else the machine is doing
 * meanwhile weighs on all of them alike, so their ratios hold still between runs.
 */
async function measureInTurns(targets: Target[], connections: number): Promise<Figures[]> {
  const stretch = Math.max(1, Math.round(DURATION / ROUNDS));
  for (const t of targets) await load(t.base, t.paths, t.headers, 1, connections);
  const samples: Sample[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      samples[i]?.push(await load(t.base, t.paths, t.headers, stretch, connections));
    }
  }
  return samples.map(figuresOf);
}

const ms = (v: number) => `${String(v).padStart(6)} ms`;

/** A name and its figures: requests per second, p50, p99. */
const figuresLine = (name: string, f: Figures) =>
  `${name.padEnd(48)}  ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${ms(f.p50)}  p99 ${ms(f.p99)}`;

/** Said after a measurement that had failed or refused requests. */
const failures = (f: Figures) =>
  f.errors + f.non2xx > 0 ? `  (!) ${f.errors} errors, ${f.non2xx} non-2xx` : '';

/** One scenario: its figures, its same-work yardstick's, and the ratios to both yardsticks. */
function row(name: string, f: Figures, same: Figures, bare: Figures): string {
  return [
    figuresLine(name, f),
    `| same work ${same.rps.toFixed(0).padStart(6)} req/s  p99 ${ms(same.p99)}`,
    `| ${(f.rps / same.rps).toFixed(2)} of same work, ${(f.rps / bare.rps).toFixed(2)} of one SELECT${failures(f)}`,
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
    console.log(`${figuresLine('bare Fastify + one indexed SELECT', bare)}\n`);
    const results = new Map<string, { f: Figures; same: Figures }>();
    let section = '';
    for (const s of server.ready.scenarios.filter((x) => chosen(x.name) && !x.size)) {
      const heading = s.admin ? 'Back office' : 'Customer';
      if (heading !== section) {
        section = heading;
        console.log(`${heading}:`);
      }
      const [f, same] = await measureInTurns(
        [
          { base: app, paths: s.paths, headers: { cookie: s.cookie } },
          { base: bareBase, paths: s.same, headers: {} },
        ],
        s.admin ? ADMIN_CONNECTIONS : CONNECTIONS,
      );
      if (!f || !same) continue;
      results.set(s.name, { f, same });
      console.log(row(s.name, f, same, bare));
    }
    const sizes = await sizeBenchmarks(
      app,
      server.ready.scenarios.filter((x) => chosen(x.name)),
    );

    if (results.size > 0) console.log('\nTargets:');
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
    sizeTable(server.ready.scenarios, sizes);
  } finally {
    await server.stop();
  }
}

/**
 * The history-size scenarios, a column at a time: the customers' sizes measured in turns, so
 * that the table compares sizes, not moments of the run.
 */
async function sizeBenchmarks(app: string, list: Scenario[]): Promise<Map<string, { f: Figures }>> {
  const results = new Map<string, { f: Figures }>();
  const sized = list.filter((s) => s.size);
  if (sized.length > 0) console.log('\nHistory size, each column measured in turns:');
  for (const column of SIZE_COLUMNS) {
    const own = sized.filter((s) => s.column === column);
    const figures = await measureInTurns(
      own.map((s) => ({ base: app, paths: s.paths, headers: { cookie: s.cookie } })),
      CONNECTIONS,
    );
    for (const [i, s] of own.entries()) {
      const f = figures[i];
      if (!f) continue;
      results.set(s.name, { f });
      console.log(`${figuresLine(s.name, f)}${failures(f)}`);
    }
  }
  return results;
}

/**
 * Requests per second (p99) by history size; the target: every column within 1.5x across the
 * grown customers (one customer at three ages). The busy customer's row is printed beside
 * them, with its column's ratio to the grown ones', as what dense recent activity costs.
 */
function sizeTable(list: Scenario[], results: Map<string, { f: Figures }>) {
  const rows = [
    ...new Map(
      list
        .filter((s) => s.size && s.shape && results.has(s.name))
        .map((s) => [`${s.shape} ${s.size}`, { size: s.size ?? 0, shape: s.shape ?? 'grown' }]),
    ).values(),
  ];
  if (rows.length === 0) return;
  type Row = (typeof rows)[number];
  const cell = (row: Row, column: string) => {
    const s = list.find((x) => x.size === row.size && x.shape === row.shape && x.column === column);
    return s ? results.get(s.name)?.f : undefined;
  };
  const labelWidth = 24;
  console.log(`\nBy history size: req/s (p99)`);
  console.log(
    `${'ledger rows'.padEnd(labelWidth)}${SIZE_COLUMNS.map((c) => c.padStart(22)).join('')}`,
  );
  for (const row of rows) {
    const cells = SIZE_COLUMNS.map((c) => {
      const f = cell(row, c);
      return (f ? `${f.rps.toFixed(0)} (${f.p99} ms)` : '-').padStart(22);
    });
    console.log(`${sizeLabel(row.size, row.shape).padEnd(labelWidth)}${cells.join('')}`);
  }
  const spread = (rps: number[]) =>
    // A size that served nothing in time is as far from the others as it gets.
    Math.min(...rps) > 0 ? Math.max(...rps) / Math.min(...rps) : Number.POSITIVE_INFINITY;
  const shown = (ratio: number) =>
    Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'unbounded (a size served nothing in time)';
  let worst = { ratio: 1, column: '' };
  for (const c of SIZE_COLUMNS) {
    const rps = rows.filter((r) => r.shape === 'grown').flatMap((r) => cell(r, c)?.rps ?? []);
    if (rps.length < 2) continue;
    const ratio = spread(rps);
    if (ratio > worst.ratio) worst = { ratio, column: c };
  }
  console.log(
    `Worst ratio across the grown sizes: ${shown(worst.ratio)}${worst.column ? ` (${worst.column})` : ''} (target <= 1.5x)`,
  );
  for (const busy of rows.filter((r) => r.shape === 'busy')) {
    const against = SIZE_COLUMNS.map((c) => {
      const grown = rows.filter((r) => r.shape === 'grown').flatMap((r) => cell(r, c)?.rps ?? []);
      const own = cell(busy, c)?.rps;
      return own === undefined || grown.length === 0
        ? `${c} -`
        : `${c} ${shown(Math.max(...grown) / own)}`;
    });
    console.log(
      `${sizeLabel(busy.size, busy.shape)}, fastest grown size over it: ${against.join(', ')}`,
    );
  }
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
