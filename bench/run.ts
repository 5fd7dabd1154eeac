/**
 * `npm run bench`: load figures for Coffer's hot paths, each printed beside a bare Fastify
 * route measured in the same run on the same machine, so the ratio means something on any
 * hardware. Prints figures; asserts nothing (targets are in the README of this folder).
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

type Ready = { appPort: number; barePort: number; cookie: string };
type Figures = { rps: number; p99: number; p50: number; errors: number; non2xx: number };

function startServer(): Promise<{ ready: Ready; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const ready = JSON.parse(line) as Ready;
      resolve({
        ready,
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
  url: string,
  headers: Record<string, string>,
  seconds = DURATION,
): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function row(name: string, f: Figures, bare?: Figures): string {
  const ratio = bare ? `  ratio ${(f.rps / bare.rps).toFixed(2)} of bare` : '';
  const bad = f.errors + f.non2xx > 0 ? `  (!) ${f.errors} errors, ${f.non2xx} non-2xx` : '';
  return `${name.padEnd(44)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms${ratio}${bad}`;
}

const server = await startServer();
try {
  const { appPort, barePort, cookie } = server.ready;
  const bareUrl = `http://127.0.0.1:${barePort}/bare`;
  const sessionUrl = `http://127.0.0.1:${appPort}/api/session`;
  console.log(
    `Coffer benchmarks: ${CONNECTIONS} connections, ${DURATION} s each, after a 3 s warm-up\n`,
  );
  await measure(bareUrl, {}, 3);
  await measure(sessionUrl, { cookie }, 3);
  const bare = await measure(bareUrl, {});
  const session = await measure(sessionUrl, { cookie });
  console.log(row('bare Fastify + single indexed SELECT', bare));
  console.log(row('GET /api/session (signed in, 2FA verified)', session, bare));
  console.log(
    `\nTarget: authenticated session route at 0.8 or more of the bare route -> ${(session.rps / bare.rps).toFixed(2)}`,
  );
} finally {
  await server.stop();
}
