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

type Ready = {
  appPort: number;
  barePort: number;
  cookie: string;
  heavyCookie: string;
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

async function measure(
  base: string,
  paths: string[],
  headers: Record<string, string>,
  seconds = DURATION,
): Promise<Figures> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: paths.map((path) => ({ method: 'GET', path, headers })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p95: result.latency.p97_5,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function row(name: string, f: Figures, bare?: Figures): string {
  const ratio = bare ? `  ${(f.rps / bare.rps).toFixed(2)} of bare` : '';
  const bad = f.errors + f.non2xx > 0 ? `  (!) ${f.errors} errors, ${f.non2xx} non-2xx` : '';
  return `${name.padEnd(46)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms${ratio}${bad}`;
}

const server = await startServer();
try {
  const { appPort, barePort, cookie, heavyCookie, historyUrls } = server.ready;
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
  for (const s of scenarios) {
    await measure(app, s.paths, { cookie: s.cookie }, 2);
    const f = await measure(app, s.paths, { cookie: s.cookie });
    results.set(s.name, f);
    console.log(row(s.name, f, bare));
  }
  const ratio = (name: string) => ((results.get(name)?.rps ?? 0) / bare.rps).toFixed(2);
  console.log('\nTargets:');
  console.log(
    `  session route >= 0.8 of bare: ${ratio('GET /api/session (signed in, 2FA verified)')}`,
  );
  console.log(`  dashboard calls >= 0.5 of bare: ${ratio('dashboard: all four calls, in turn')}`);
  console.log(
    `  history page p99 < 20 ms at ${CONNECTIONS} connections: ${results.get('history page, 100,000-row customer (41 pages)')?.p99} ms`,
  );
} finally {
  await server.stop();
}
