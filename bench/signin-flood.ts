/**
 * Sign-in flood benchmark (part of `npm run bench`; alone: `BENCH_ONLY=signin-flood npm run
 * bench`): a real customer signs in from their known browser (its device cookie), first on
 * a quiet server, then while 200 connections keep sending sign-ins of unknown e-mails from
 * 20 addresses (as one proxy in front reports them: TRUST_PROXY=1). Prints the customer's
 * sign-in latency quiet and flooded (and their ratio), how the flood was answered (503 BUSY
 * at once, or checked), the live probe's latency under the flood, how long a new database
 * connection took, and the jobs that failed meanwhile. Asserts nothing; targets beside.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import readline from 'node:readline';
import autocannon from 'autocannon';

const FLOOD_CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 200);
const FLOOD_ADDRESSES = 20;
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 20);
const CUSTOMER_SIGN_INS = 8;

type Ready = { port: number; email: string; password: string };
type Stats = {
  connectMs: number[];
  connectFailures: number;
  runs: number;
  failures: number;
  scheduledRuns: number;
  scheduledFailures: number;
};

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/signin-flood-server.ts'], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const childOut = child.stdout;
if (!childOut) throw new Error('no output from the sign-in bench server');
const ready = await new Promise<Ready>((resolve, reject) => {
  child.on('exit', (code) => reject(new Error(`sign-in bench server exited (${code})`)));
  readline.createInterface({ input: childOut }).on('line', (line) => {
    if (line.startsWith('{')) resolve(JSON.parse(line) as Ready);
  });
});
const ask = <T>(msg: string) =>
  new Promise<T>((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(msg);
  });
const stop = () =>
  new Promise<void>((done) => {
    child.removeAllListeners('exit');
    child.on('exit', () => done());
    child.kill('SIGTERM');
  });

const origin = `http://127.0.0.1:${ready.port}`;
// The customer's own address, as the proxy reports it.
const HOME = '198.51.100.10';

/** One sign-in of the customer; its time and answer, and the device cookie it set. */
async function customerSignIn(device: string | null) {
  const started = performance.now();
  const res = await fetch(`${origin}/api/auth/sign-in`, {
    method: 'POST',
    headers: {
      origin,
      'content-type': 'application/json',
      'x-forwarded-for': HOME,
      ...(device ? { cookie: device } : {}),
    },
    body: JSON.stringify({ email: ready.email, password: ready.password }),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  const set = res.headers.getSetCookie().find((c) => c.startsWith('coffer_device='));
  return { ms, status: res.status, device: set ? (set.split(';')[0] ?? null) : device };
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** The q-th quantile (nearest rank) of sorted values, in whole milliseconds. */
function quantile(xs: number[], q: number): number {
  const s = sorted(xs);
  if (s.length === 0) return 0;
  return Math.round(s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0);
}
const ms = (v: number) => `${String(Math.round(v)).padStart(6)} ms`;

/** Failed runs of timed jobs, from the server's /metrics (this machine may read it). */
async function failedJobRuns(): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  let failed = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('coffer_job_runs_total{') && line.includes('outcome="failed"')) {
      failed += Number(line.split(' ').at(-1));
    }
  }
  return failed;
}

try {
  // The customer's browser becomes a known device, then signs in on a quiet server.
  let device = (await customerSignIn(null)).device;
  if (!device) throw new Error('the customer got no device cookie');
  const quiet: number[] = [];
  for (let i = 0; i < CUSTOMER_SIGN_INS; i++) quiet.push((await customerSignIn(device)).ms);
  const quietLive: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    await (await fetch(`${origin}/api/health/live`)).arrayBuffer();
    quietLive.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 100));
  }
  const quietStats = await ask<Stats>('stats');
  const failedBefore = await failedJobRuns();
  await ask('reset');

  // The flood: every request an unknown e-mail, from one of 20 addresses.
  const statuses = new Map<number, number>();
  let sent = 0;
  const flood = new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections: FLOOD_CONNECTIONS,
        duration: FLOOD_SECONDS,
        timeout: 60,
        requests: [
          {
            method: 'POST',
            path: '/api/auth/sign-in',
            setupRequest: (req) => {
              sent += 1;
              return {
                ...req,
                headers: {
                  origin,
                  'content-type': 'application/json',
                  'x-forwarded-for': `203.0.113.${sent % FLOOD_ADDRESSES}`,
                },
                body: JSON.stringify({
                  email: `nobody-${randomBytes(6).toString('hex')}@example.com`,
                  password: 'Guess-Guess-1',
                }),
              };
            },
          },
        ],
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client, status) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });

  // Under way: the live probe every 200 ms, and the customer signing in again and again.
  await new Promise((r) => setTimeout(r, 3000));
  let flooding = true;
  const live: number[] = [];
  const probing = (async () => {
    while (flooding) {
      const started = performance.now();
      await (await fetch(`${origin}/api/health/live`)).arrayBuffer();
      live.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const flooded: number[] = [];
  const customerStatuses: number[] = [];
  for (let i = 0; i < CUSTOMER_SIGN_INS; i++) {
    const r = await customerSignIn(device);
    device = r.device ?? device;
    flooded.push(r.ms);
    customerStatuses.push(r.status);
  }
  // The same customer in a browser Coffer has not seen (no device cookie).
  const stranger = await customerSignIn(null);
  const result = await flood;
  flooding = false;
  await probing;
  const stats = await ask<Stats>('stats');
  const failedAfter = await failedJobRuns();

  const count = (s: number) => statuses.get(s) ?? 0;
  const other = [...statuses].filter(([s]) => ![401, 429, 503].includes(s));
  const quietP50 = quantile(quiet, 0.5);
  const floodP50 = quantile(flooded, 0.5);
  console.log(
    `\nSign-in flood: ${FLOOD_CONNECTIONS} connections of unknown e-mails from ${FLOOD_ADDRESSES} addresses, ${FLOOD_SECONDS} s (${os.availableParallelism()} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end)\n`,
  );
  console.log(
    `customer sign-in (known device), quiet     p50 ${ms(quietP50)}   max ${ms(Math.max(...quiet))}`,
  );
  console.log(
    `customer sign-in (known device), flooded   p50 ${ms(floodP50)}   max ${ms(Math.max(...flooded))}   ${(floodP50 / quietP50).toFixed(2)}× quiet   answers ${customerStatuses.join(' ')}`,
  );
  console.log(
    `customer sign-in (no device cookie), flooded            ${ms(stranger.ms)}   answer ${stranger.status}`,
  );
  console.log(
    `flood answers: ${result.requests.total} requests (${(result.requests.total / FLOOD_SECONDS).toFixed(0)}/s): ${count(503)} × 503 BUSY, ${count(401)} checked (401), ${count(429)} × 429${other.length ? `, other: ${other.map(([s, n]) => `${n} × ${s}`).join(', ')}` : ''}, ${result.errors} errors, ${result.timeouts} timeouts`,
  );
  console.log(
    `flood latency: p50 ${ms(result.latency.p50)}   p99 ${ms(result.latency.p99)}   max ${ms(result.latency.max)}`,
  );
  console.log(
    `GET /api/health/live, quiet                p50 ${ms(quantile(quietLive, 0.5))}   p99 ${ms(quantile(quietLive, 0.99))}   max ${ms(Math.max(...quietLive))}`,
  );
  console.log(
    `GET /api/health/live under flood           p50 ${ms(quantile(live, 0.5))}   p99 ${ms(quantile(live, 0.99))}   max ${ms(Math.max(...live))}   (${live.length} probes)`,
  );
  console.log(
    `new database connection, quiet             p50 ${ms(quantile(quietStats.connectMs, 0.5))}   max ${ms(Math.max(0, ...quietStats.connectMs))}   ${quietStats.connectFailures} failed`,
  );
  console.log(
    `new database connection under flood        p50 ${ms(quantile(stats.connectMs, 0.5))}   max ${ms(Math.max(0, ...stats.connectMs))}   ${stats.connectFailures} failed (10 s is the pool's connect timeout)`,
  );
  console.log(
    `jobs failed under flood: ${failedAfter - failedBefore} (metrics: staking credits and reconciliation every second, ${stats.runs} runs, ${stats.failures} failed; scheduled jobs ${stats.scheduledFailures} failed of ${stats.scheduledRuns} runs since start)`,
  );
  console.log('\nTargets:');
  console.log(
    `  known-device sign-in succeeds under flood: ${customerStatuses.every((s) => s === 200) ? 'yes' : 'NO'}`,
  );
  console.log(`  flooded / quiet sign-in p50 < 10: ${(floodP50 / quietP50).toFixed(2)}`);
  console.log(`  health/live p99 < 100 ms under flood: ${quantile(live, 0.99)} ms`);
  console.log(`  no job fails: ${failedAfter - failedBefore} failed`);
} finally {
  await stop();
}
