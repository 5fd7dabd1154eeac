import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Only `npm start` and `restore` set up an installation. Any other command run where there
 * is none (another DATA_DIR, no DATABASE_URL: not the server's environment) stops with one
 * line naming where it looked, and creates nothing: no database, no key file.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const dirs: string[] = [];
const emptyDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-no-install-'));
  dirs.push(dir);
  return dir;
};

/** Runs the CLI with exactly these variables set; its exit code and what it printed. */
function cli(args: string[], env: Record<string, string>) {
  const base = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'COFFER_SECRET_KEY', 'EMBEDDED_PG_PORT'])
    delete base[name];
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/cli.ts', ...args],
    {
      cwd: root,
      env: { ...base, LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    },
  ).then(
    ({ stdout, stderr }) => ({ code: 0 as unknown, stdout, stderr }),
    (err: { code?: unknown; stdout?: string; stderr?: string }) => ({
      code: err.code,
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }),
  );
}

const ADVICE =
  "Run the command with the server's own DATA_DIR, DATABASE_URL and COFFER_SECRET_KEY; only npm start (or restore) sets up a new one. Nothing was created.";

describe('an operator command where there is no installation', () => {
  it.each([
    ['payouts-build', ['--chain', 'btc', '--out', 'batch.psbt']],
    ['create-admin', ['--email', 'ops@example.com', '--password', 'Operator-Pass-7']],
    [
      'credit-deposit',
      ['--email', 'c@example.com', '--asset', 'BTC', '--amount', '1', '--tx-hash', 'ab'],
    ],
    ['audit-verify', []],
  ])(
    '%s in an empty DATA_DIR stops with one line, exit 1, and the directory stays empty',
    async (command, args) => {
      const dir = emptyDir();
      const run = await cli([command, ...args], { DATA_DIR: dir });
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `Coffer cannot start: no Coffer installation here: DATA_DIR ${dir} holds no database (DATABASE_URL is not set), and no secret key either (COFFER_SECRET_KEY is not set, ${dir}/secret.key does not exist). ${ADVICE}\n`,
      });
      expect(fs.readdirSync(dir)).toEqual([]);
    },
    60_000,
  );

  it('a DATA_DIR that does not exist is not created, with or without a key', async () => {
    const missing = path.join(emptyDir(), 'nowhere');
    const key = randomBytes(32).toString('hex');
    const run = await cli(['chain-status'], { DATA_DIR: missing, COFFER_SECRET_KEY: key });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `Coffer cannot start: no Coffer installation here: DATA_DIR ${missing} holds no database (DATABASE_URL is not set), and the secret key would be COFFER_SECRET_KEY. ${ADVICE}\n`,
    });
    expect(fs.existsSync(missing)).toBe(false);
  }, 60_000);

  describe('with DATABASE_URL naming an empty database', () => {
    const name = `empty_${randomBytes(6).toString('hex')}`;
    const server = new URL(inject('pgServerUrl'));
    const url = `${inject('pgServerUrl')}/${name}`;
    const admin = () => new pg.Client({ connectionString: `${inject('pgServerUrl')}/postgres` });

    beforeAll(async () => {
      const c = admin();
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
    });
    afterAll(async () => {
      const c = admin();
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    });

    it('stops with one line naming the database and the key file, and writes no table and no key', async () => {
      const dir = emptyDir();
      const run = await cli(['payouts-build', '--chain', 'btc', '--out', 'x.psbt'], {
        DATA_DIR: dir,
        DATABASE_URL: url,
      });
      expect(run).toEqual({
        code: 1,
        stdout: '',
        stderr: `Coffer cannot start: no Coffer installation here: the database at ${server.hostname}:${server.port} (DATABASE_URL) holds no Coffer data, and no secret key either (COFFER_SECRET_KEY is not set, ${dir}/secret.key does not exist). ${ADVICE}\n`,
      });
      expect(fs.readdirSync(dir)).toEqual([]);
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
        );
        expect(rows).toEqual([]);
      } finally {
        await db.end();
      }
    }, 60_000);
  });
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
