/**
 * Start-up of a built tree: how long Coffer's `npm start` takes, from a cold process to its
 * first served page (GET / answering 200) on an existing embedded database, beside how long
 * PostgreSQL alone takes to start on the same data directory (the embedded server's own
 * start, as Coffer makes it). Three rounds each; the medians and their ratio are printed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = 3;

async function firstPage(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} did not answer 200 in time`);
}

/** Coffer from `npm start` to its first page, in ms; the process is stopped after. */
async function cofferStart(dir: string, port: number, pgPort: number): Promise<number> {
  const began = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/scripts/start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  try {
    await firstPage(`http://127.0.0.1:${port}/`, Date.now() + 180_000);
    return performance.now() - began;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** PostgreSQL alone on the same data directory, in ms; stopped after. */
async function postgresStart(dir: string, pgPort: number): Promise<number> {
  const began = performance.now();
  const db = await startEmbeddedPostgres({ dir, port: pgPort });
  const ms = performance.now() - began;
  await db.stop();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function startupBenchmark(): Promise<void> {
  const built =
    fs.existsSync(path.join(ROOT, 'apps/server/dist/main.js')) &&
    fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'));
  if (!built) {
    console.log('\nStart-up: skipped, the tree is not built (run `npm run build` first).');
    return;
  }
  const dir = process.env.BENCH_STARTUP_DIR ?? path.join(os.tmpdir(), 'coffer-bench-startup');
  const port = Number(process.env.BENCH_STARTUP_PORT ?? 3391);
  const pgPort = Number(process.env.BENCH_STARTUP_PG_PORT ?? 54397);
  // The first start makes the database and migrates it; the rounds measure later starts.
  await cofferStart(dir, port, pgPort);
  const coffer: number[] = [];
  const postgres: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    postgres.push(await postgresStart(dir, pgPort));
    coffer.push(await cofferStart(dir, port, pgPort));
  }
  const c = median(coffer);
  const p = median(postgres);
  console.log(`\nStart-up of the built tree (median of ${ROUNDS}):`);
  console.log(`  PostgreSQL alone on the data directory: ${p.toFixed(0)} ms`);
  console.log(`  Coffer, npm start to the first page:    ${c.toFixed(0)} ms`);
  console.log(`  ratio: ${(c / p).toFixed(2)}x PostgreSQL's own start`);
}
