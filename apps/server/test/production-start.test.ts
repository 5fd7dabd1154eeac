import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from './free-port';
import { CATALOG, OPEN_ACTION_SCRIPT, obj, pdfOf } from './pdf-fixtures';

/**
 * The production start (decision 0018): the server compiled by `npm run build`
 * runs with plain Node, finds its migrations and its PDF worker from dist/, and `npm start`
 * does not rebuild a current build.
 *
 * On a copy of the server's sources (with this tree's node_modules), built there: the
 * working tree's own build is left alone, and an edit made meanwhile cannot make it stale.
 */
const source = path.resolve(import.meta.dirname, '../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-prod-start-'));
const root = path.join(tmp, 'tree');
const dist = path.join(root, 'apps/server/dist');
const serverUrl = inject('pgServerUrl');
const dbName = `p_${randomBytes(6).toString('hex')}`;
const dataDir = path.join(tmp, 'data');
let server: ReturnType<typeof spawn> | undefined;

beforeAll(async () => {
  for (const part of [
    'apps/server/src',
    'apps/server/scripts',
    'apps/server/drizzle',
    'apps/server/package.json',
    'apps/server/tsconfig.json',
    'tsconfig.base.json',
    'packages/shared/src',
    'packages/shared/package.json',
    'package.json',
  ]) {
    fs.cpSync(path.join(source, part), path.join(root, part), { recursive: true });
  }
  fs.symlinkSync(path.join(source, 'node_modules'), path.join(root, 'node_modules'));
  fs.mkdirSync(dataDir);
  const build = spawnSync(process.execPath, ['apps/server/scripts/build.mjs', '--only=server'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(build.status, build.stderr).toBe(0);
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGKILL');
    await exited;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('the compiled server', () => {
  it('starts with plain Node on a new database: migrated, key recorded, healthy', async () => {
    const port = await freePort();
    server = spawn(process.execPath, [path.join(dist, 'main.js')], {
      cwd: os.tmpdir(),
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: `${serverUrl}/${dbName}`,
        PRICE_FEED_URL: 'http://127.0.0.1:9/ticker',
        FX_FEED_URL: 'http://127.0.0.1:9/fx',
        WEB_DIST_DIR: path.join(tmp, 'no-web-build'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stderr?.on('data', (c) => {
      output += String(c);
    });
    await new Promise<void>((resolve, reject) => {
      server?.stdout?.on('data', (c) => {
        output += String(c);
        if (output.includes('Coffer is running at')) resolve();
      });
      server?.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
    });

    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
    const db = new pg.Client({ connectionString: `${serverUrl}/${dbName}` });
    await db.connect();
    try {
      const migrated = await db.query("SELECT to_regclass('public.transactions')::text AS t");
      expect(migrated.rows[0].t).toBe('transactions');
      const check = await db.query('SELECT count(*)::int AS n FROM coffer_key_check');
      expect(check.rows[0].n).toBe(1);
    } finally {
      await db.end();
    }
    expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  }, 60_000);

  it('checks PDFs in its compiled worker thread', async () => {
    const worker = new Worker(path.join(dist, 'pdf-check.worker.cjs'));
    try {
      const verdict = (bytes: Buffer, id: number) =>
        new Promise<{ ok: boolean }>((resolve) => {
          worker.once('message', (m: { id: number; verdict: { ok: boolean } }) => {
            expect(m.id).toBe(id);
            resolve(m.verdict);
          });
          worker.postMessage({ id, bytes: new Uint8Array(bytes) });
        });
      expect(await verdict(pdfOf(CATALOG), 1)).toMatchObject({ ok: true });
      const scripted = pdfOf([
        obj(1, '<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>'),
        CATALOG[1] as string,
        obj(3, OPEN_ACTION_SCRIPT),
      ]);
      expect(await verdict(scripted, 2)).toMatchObject({ ok: false });
    } finally {
      await worker.terminate();
    }
  });
});

describe('npm start and npm run cli', () => {
  it('run a current build as it is, without rebuilding', () => {
    const before = fs.statSync(path.join(dist, 'cli.js')).mtimeMs;
    const run = spawnSync(process.execPath, ['apps/server/scripts/start.mjs', 'cli'], {
      cwd: root,
      encoding: 'utf8',
    });
    // No command: the compiled CLI's usage, exit 2.
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Usage: npm run cli -- <command>');
    expect(run.stderr).not.toContain('Building');
    expect(fs.statSync(path.join(dist, 'cli.js')).mtimeMs).toBe(before);
  });

  it('rebuild a part whose sources changed, and only then', () => {
    const cliJs = path.join(dist, 'cli.js');
    const config = path.join(root, 'apps/server/src/config.ts');
    // A touched file with the same content is no change.
    const now = new Date();
    fs.utimesSync(config, now, now);
    const start = () =>
      spawnSync(process.execPath, ['apps/server/scripts/start.mjs', 'cli'], {
        cwd: root,
        encoding: 'utf8',
      });
    const touched = start();
    expect(touched.stderr).not.toContain('Building');

    fs.appendFileSync(config, '\n// changed after the build\n');
    const before = fs.statSync(cliJs).mtimeMs;
    const edited = start();
    expect(edited.stderr).toContain('Building the server');
    expect(edited.status).toBe(2);
    expect(fs.statSync(cliJs).mtimeMs).toBeGreaterThan(before);
    expect(start().stderr).not.toContain('Building');
  });
});
