import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { freePort } from './free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server URL without a database name; each test file creates its own database. */
    pgServerUrl: string;
    /** Where each test file's database reports its last reconciliation (one JSON line each). */
    reconciliationLog: string;
  }
}

export const TEMPLATE_DB = 'coffer_template';

/**
 * One PostgreSQL cluster for the whole run (or TEST_DATABASE_URL's server), with a migrated
 * template database that each test file copies: a fresh database per file in milliseconds.
 */
/**
 * The embedded PostgreSQL package installs exit hooks when it loads. Its 'beforeExit' hook
 * calls `process.exit(0)`, which turns a failing run into a passing one for CI, and its
 * 'exit' hook cannot stop a server synchronously anyway. This run stops its database
 * itself (the returned teardown), so both are taken off again.
 */
async function importEmbeddedPostgres() {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { startEmbeddedPostgres } = await import('../src/db/embedded');
  for (const l of process.listeners('beforeExit'))
    if (!beforeExit.has(l)) process.off('beforeExit', l);
  for (const l of process.listeners('exit')) if (!exit.has(l)) process.off('exit', l);
  return startEmbeddedPostgres;
}

export default async function setup(project: TestProject) {
  let stop = async () => {};
  let serverUrl: string;
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const u = new URL(external);
    u.pathname = '/';
    serverUrl = u.toString().replace(/\/$/, '');
  } else {
    const startEmbeddedPostgres = await importEmbeddedPostgres();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-pg-'));
    fs.chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgres({ dir, port: await freePort(), durable: false });
    serverUrl = embedded.url.replace(/\/coffer$/, '');
    stop = async () => {
      await embedded.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: `${serverUrl}/${TEMPLATE_DB}` });
  await runMigrations(createDb(pool));
  await pool.end();
  project.provide('pgServerUrl', serverUrl);
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-ledger-')), 'log');
  fs.writeFileSync(log, '');
  project.provide('reconciliationLog', log);
  return async () => {
    reportReconciliation(log);
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
    await stop();
  };
}

/**
 * Every test file's database is reconciled before it is dropped (helpers.ts, close()):
 * the run ends with the total, so "the ledger held after the whole suite" is a figure.
 */
function reportReconciliation(log: string) {
  const lines = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { wallets: number; rows: number; mismatches: number });
  if (lines.length === 0) return;
  const sum = (k: 'wallets' | 'rows' | 'mismatches') => lines.reduce((n, l) => n + l[k], 0);
  console.log(
    `Ledger reconciliation after the suite: ${lines.length} test databases, ${sum('wallets')} wallets, ${sum('rows')} ledger rows, ${sum('mismatches')} wallets out of balance`,
  );
}
