/**
 * `npm run bench`: load figures for Coffer's hot paths, each printed beside a bare Fastify
 * route measured in the same run on the same machine, so a ratio means the same on any
 * hardware. Prints figures; asserts nothing (targets are printed beside them).
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/**
 * Only the scenarios whose name contains this text (e.g. `BENCH_ONLY=admin`); all if unset.
 * `BENCH_ONLY=chain`, `realtime`, `signin-flood` or `payouts` runs only that benchmark.
 */
const ONLY = process.env.BENCH_ONLY ?? '';
const chosen = (name: string) => name.includes(ONLY);
/** The back-office screens are measured at the load a few operators make. */
const ADMIN_CONNECTIONS = 20;

type Ready = {
  appPort: number;
  barePort: number;
  cookie: string;
  heavyCookie: string;
  adminCookie: string;
  /** One load customer's full name, for the admin search. */
  searchName: string;
  historyUrls: string[];
};
type Figures = {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
};

function startServer(): Promise<{ ready: Ready; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      resolve({
        ready: JSON.parse(line) as Ready,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.on('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

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

function row(name: string, f: Figures, bare?: Figures): string {
  const ratio = bare ? `  ${(f.rps / bare.rps).toFixed(2)} of bare` : '';
  const bad = f.errors + f.non2xx > 0 ? `  (!) ${f.errors} errors, ${f.non2xx} non-2xx` : '';
  const ms = (v: number) => `${String(v).padStart(5)} ms`;
  return `${name.padEnd(52)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(f.p50)}   p95 ${ms(f.p95)}   p99 ${ms(f.p99)}${ratio}${bad}`;
}

/** The HTTP scenarios, on the benchmark's loaded server (bench/server.ts). */
async function httpBenchmarks() {
  const server = await startServer();
  try {
    const { appPort, barePort, cookie, heavyCookie, adminCookie, searchName, historyUrls } =
      server.ready;
    const app = `http://127.0.0.1:${appPort}`;
    const bareBase = `http://127.0.0.1:${barePort}`;
    console.log(
      `Coffer benchmarks: ${CONNECTIONS} connections, ${DURATION} s each, after warm-ups\n`,
    );
    const scenarios: Array<{ name: string; paths: string[]; cookie: string }> = [
      { name: 'GET /api/session (signed in, 2FA verified)', paths: ['/api/session'], cookie },
      { name: 'GET /api/wallets (dashboard)', paths: ['/api/wallets'], cookie },
      { name: 'GET /api/staking (dashboard, polled)', paths: ['/api/staking'], cookie },
      { name: 'GET /api/prices (dashboard)', paths: ['/api/prices'], cookie },
      { name: 'GET /api/money/status (dashboard)', paths: ['/api/money/status'], cookie },
      {
        name: 'dashboard: all four calls, in turn',
        paths: ['/api/wallets', '/api/staking', '/api/prices', '/api/money/status'],
        cookie,
      },
      {
        name: 'history page, 100,000-row customer (41 pages)',
        paths: historyUrls,
        cookie: heavyCookie,
      },
    ];
    await measure(bareBase, ['/bare'], {}, 3);
    const bare = await measure(bareBase, ['/bare'], {});
    console.log(row('bare Fastify + single indexed SELECT', bare));
    const results = new Map<string, Figures>();
    for (const s of scenarios.filter((x) => chosen(x.name))) {
      await measure(app, s.paths, { cookie: s.cookie }, 2);
      const f = await measure(app, s.paths, { cookie: s.cookie });
      results.set(s.name, f);
      console.log(row(s.name, f, bare));
    }
    console.log(`\nBack office, ${ADMIN_CONNECTIONS} connections, 1,000,000 transactions:`);
    const adminScenarios: Array<{ name: string; paths: string[] }> = [
      { name: 'admin transactions, first page', paths: ['/api/admin/transactions?page=1'] },
      {
        // The load data's withdrawals are failed ones: a filter that finds a full page.
        name: 'admin transactions, filtered (failed withdrawals)',
        paths: ['/api/admin/transactions?page=1&status=failed&type=withdrawal'],
      },
      {
        name: "admin transactions, text search (a customer's name)",
        paths: [`/api/admin/transactions?page=1&q=${encodeURIComponent(searchName)}`],
      },
      { name: 'admin users, first page', paths: ['/api/admin/users'] },
    ];
    for (const s of adminScenarios.filter((x) => chosen(x.name))) {
      const headers = { cookie: adminCookie };
      await measure(app, s.paths, headers, 2, ADMIN_CONNECTIONS);
      const f = await measure(app, s.paths, headers, DURATION, ADMIN_CONNECTIONS);
      results.set(s.name, f);
      console.log(row(s.name, f, bare));
    }
    const SESSION = 'GET /api/session (signed in, 2FA verified)';
    const DASHBOARD = 'dashboard: all four calls, in turn';
    const HISTORY = 'history page, 100,000-row customer (41 pages)';
    const targets: Array<[string, string, (f: Figures) => string]> = [
      [SESSION, 'session route >= 0.8 of bare', (f) => (f.rps / bare.rps).toFixed(2)],
      [DASHBOARD, 'dashboard calls >= 0.5 of bare', (f) => (f.rps / bare.rps).toFixed(2)],
      [HISTORY, `history page p99 < 20 ms at ${CONNECTIONS} connections`, (f) => `${f.p99} ms`],
      ...adminScenarios.map((s): [string, string, (f: Figures) => string] => [
        s.name,
        `${s.name}: p95 < 50 ms at ${ADMIN_CONNECTIONS} connections`,
        (f) => `${f.p95} ms`,
      ]),
    ];
    console.log('\nTargets:');
    for (const [name, target, shown] of targets) {
      const f = results.get(name);
      if (f) console.log(`  ${target}: ${shown(f)}`);
    }
  } finally {
    await server.stop();
  }
}

// The HTTP figures, unless only a benchmark with a server of its own was asked for.
if (!['chain', 'realtime', 'signin-flood', 'payouts'].includes(ONLY)) {
  await httpBenchmarks();
}

// Realtime: websocket delivery under load, with a server of its own (bench/realtime.ts).
if (chosen('realtime')) await import('./realtime');
// Chains: the Ethereum watcher against anvil (bench/chains.ts).
if (chosen('chain')) await import('./chains');
// Sign-in under a flood of strangers' sign-ins, with a server of its own (bench/signin-flood.ts).
if (chosen('signin-flood')) await import('./signin-flood');

// Payouts: building and checking 500-payout batches, no node (bench/payouts.ts).
if (chosen('payouts')) await import('./payouts');
