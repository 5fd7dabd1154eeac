import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEMPLATE_DB } from '@server-test/global-setup';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config';
import { createLogger, openServices } from '../infra';
import { createSecrets, keyFingerprint } from './crypto';
import { checkSecretKey, readSecretKey, type SecretKey } from './secret-key';
import { StartupError } from './startup-error';

/**
 * The key check at start-up, on real databases: a brand-new one (empty), one
 * that already holds accounts from before the check (a copy of the migrated template), and
 * one that has its check value.
 */
const serverUrl = inject('pgServerUrl');
const made: string[] = [];
const pools: pg.Pool[] = [];
let dataDir: string;

async function database(template: 'empty' | 'migrated'): Promise<pg.Pool> {
  const name = `k_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(
    template === 'empty'
      ? `CREATE DATABASE ${name}`
      : `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`,
  );
  await admin.end();
  made.push(name);
  const pool = new pg.Pool({ connectionString: `${serverUrl}/${name}` });
  pools.push(pool);
  return pool;
}

const envKey = (key = randomBytes(32)): SecretKey => ({ key, source: 'COFFER_SECRET_KEY' });

/** An installation from before the check: one customer with 2FA on, under `key`. */
async function accountWithTwoFactor(pool: pg.Pool, key: Buffer): Promise<void> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO users (email, password_hash) VALUES ('old@example.com', 'x') RETURNING id",
  );
  await pool.query(
    'INSERT INTO user_two_factor (user_id, secret_encrypted, enabled_at) VALUES ($1, $2, now())',
    [rows[0]?.id, createSecrets(key).encrypt('JBSWY3DPEHPK3PXP')],
  );
}

async function storedCheck(pool: pg.Pool): Promise<unknown[] | null> {
  const { rows } = await pool.query<{ t: string | null }>(
    "SELECT to_regclass('public.coffer_key_check')::text AS t",
  );
  if (rows[0]?.t == null) return null;
  return (await pool.query('SELECT * FROM coffer_key_check')).rows;
}

async function refusal(act: Promise<unknown>): Promise<string> {
  const err = await act.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StartupError);
  return (err as StartupError).message;
}

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-key-test-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end().catch(() => {})));
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('a brand-new database', () => {
  it('without a configured key, gets a generated key file (0600) that later starts accept', async () => {
    const pool = await database('empty');
    const key = await checkSecretKey(pool, { dataDir, key: null });
    const file = path.join(dataDir, 'secret.key');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(key.toString('hex'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await storedCheck(pool)).toEqual([
      expect.objectContaining({ fingerprint: keyFingerprint(key) }),
    ]);

    const again = await checkSecretKey(pool, { dataDir, key: readSecretKey(dataDir, null) });
    expect(again.equals(key)).toBe(true);
  });

  it('takes COFFER_SECRET_KEY as its key and writes no key file', async () => {
    const pool = await database('empty');
    const given = envKey();
    const key = await checkSecretKey(pool, { dataDir, key: given });
    expect(key.equals(given.key)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(await storedCheck(pool)).toEqual([
      expect.objectContaining({ fingerprint: keyFingerprint(given.key) }),
    ]);
  });
});

describe('a database with its check value', () => {
  it('refuses a missing key, names the key to restore, and makes no new key', async () => {
    const pool = await database('empty');
    const original = envKey();
    await checkSecretKey(pool, { dataDir, key: original });
    const before = await storedCheck(pool);

    const message = await refusal(checkSecretKey(pool, { dataDir, key: null }));
    expect(message).toContain('No secret key');
    expect(message).toContain(keyFingerprint(original.key));
    expect(message).toContain('Restore that key');
    expect(message).not.toContain(original.key.toString('hex'));
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(await storedCheck(pool)).toEqual(before);
  });

  it('refuses a changed key, naming both fingerprints and where the wrong one came from', async () => {
    const pool = await database('empty');
    const original = envKey();
    await checkSecretKey(pool, { dataDir, key: original });
    const before = await storedCheck(pool);
    const file = path.join(dataDir, 'secret.key');
    const other = randomBytes(32);
    fs.writeFileSync(file, other.toString('hex'));

    const message = await refusal(
      checkSecretKey(pool, { dataDir, key: readSecretKey(dataDir, null) }),
    );
    expect(message).toContain('Wrong secret key');
    expect(message).toContain(file);
    expect(message).toContain(keyFingerprint(other));
    expect(message).toContain(keyFingerprint(original.key));
    expect(message).not.toContain(other.toString('hex'));
    expect(await storedCheck(pool)).toEqual(before);
    // The wrong key file is left for the operator to replace, not overwritten.
    expect(fs.readFileSync(file, 'utf8')).toBe(other.toString('hex'));
  });

  it('accepts the right key given in upper case through COFFER_SECRET_KEY', async () => {
    const pool = await database('empty');
    const original = envKey();
    await checkSecretKey(pool, { dataDir, key: original });
    const fromEnv = readSecretKey(dataDir, original.key.toString('hex').toUpperCase());
    expect((await checkSecretKey(pool, { dataDir, key: fromEnv })).equals(original.key)).toBe(true);
  });
});

describe('an installation from before the check (accounts, no check value)', () => {
  it('refuses a key that cannot decrypt its 2FA secrets and records nothing', async () => {
    const pool = await database('migrated');
    await accountWithTwoFactor(pool, randomBytes(32));
    const wrong = envKey();
    const message = await refusal(checkSecretKey(pool, { dataDir, key: wrong }));
    expect(message).toContain('cannot decrypt a 2FA secret');
    expect(message).toContain(keyFingerprint(wrong.key));
    expect(await storedCheck(pool)).toBeNull();
  });

  it('refuses to start without a key and generates none', async () => {
    const pool = await database('migrated');
    await accountWithTwoFactor(pool, randomBytes(32));
    const message = await refusal(checkSecretKey(pool, { dataDir, key: null }));
    expect(message).toContain('already holds accounts');
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(await storedCheck(pool)).toBeNull();
  });

  it('records the check value of the key that decrypts its secrets, then holds to it', async () => {
    const pool = await database('migrated');
    const original = envKey();
    await accountWithTwoFactor(pool, original.key);
    await checkSecretKey(pool, { dataDir, key: original });
    expect(await storedCheck(pool)).toEqual([
      expect.objectContaining({ fingerprint: keyFingerprint(original.key) }),
    ]);
    const message = await refusal(checkSecretKey(pool, { dataDir, key: envKey() }));
    expect(message).toContain(keyFingerprint(original.key));
  });

  it('with accounts but nothing encrypted yet, records the configured key', async () => {
    const pool = await database('migrated');
    await pool.query("INSERT INTO users (email, password_hash) VALUES ('new@example.com', 'x')");
    const given = envKey();
    await checkSecretKey(pool, { dataDir, key: given });
    expect(await storedCheck(pool)).toEqual([
      expect.objectContaining({ fingerprint: keyFingerprint(given.key) }),
    ]);
  });
});

describe('instances starting together on a new database', () => {
  it('agree on one key: the first recorded wins and a different one is refused', async () => {
    const pool = await database('empty');
    const keys = [envKey(), envKey(), envKey()];
    const results = await Promise.allSettled(
      keys.map((key) => checkSecretKey(pool, { dataDir, key })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StartupError);
    }
    expect(await storedCheck(pool)).toHaveLength(1);
  });
});

describe('the server start (openServices)', () => {
  it('with the wrong key, stops before the migrations touch the database', async () => {
    const pool = await database('empty');
    await checkSecretKey(pool, { dataDir, key: envKey() });
    const url = `${serverUrl}/${made.at(-1)}`;
    const config = loadConfig({
      DATA_DIR: dataDir,
      COFFER_SECRET_KEY: randomBytes(32).toString('hex'),
    });
    const message = await refusal(openServices(config, url, createLogger('silent')));
    expect(message).toContain('Wrong secret key');
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> 'coffer_key_check'",
    );
    expect(rows[0]?.n).toBe(0);
  });
});

describe('the CLI', () => {
  it('refuses a wrong key the same way, in one line, and runs nothing', async () => {
    const pool = await database('migrated');
    const original = envKey();
    await checkSecretKey(pool, { dataDir, key: original });
    const wrong = randomBytes(32);
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/server/src/cli.ts',
        'create-admin',
        '--email',
        'a@example.com',
        '--password',
        'Coffer-Test-1',
      ],
      {
        cwd: path.resolve(import.meta.dirname, '../../../..'),
        env: {
          ...process.env,
          DATABASE_URL: `${serverUrl}/${made.at(-1)}`,
          DATA_DIR: dataDir,
          COFFER_SECRET_KEY: wrong.toString('hex'),
          LOG_LEVEL: 'silent',
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(
      `Coffer cannot start: Wrong secret key: COFFER_SECRET_KEY holds the key of fingerprint ${keyFingerprint(wrong)}, but this database's secrets are encrypted with the key of fingerprint ${keyFingerprint(original.key)}.`,
    );
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(rows[0]?.n).toBe(0);
  }, 40_000);
});

describe('reading the key', () => {
  it('refuses a malformed COFFER_SECRET_KEY or key file with what is wrong, never a new key', () => {
    expect(() => readSecretKey(dataDir, 'abc')).toThrow(
      /64 hexadecimal characters \(32 bytes\); it has 3 characters\./,
    );
    expect(() => readSecretKey(dataDir, 'z'.repeat(64))).toThrow(/some not hexadecimal/);
    const file = path.join(dataDir, 'secret.key');
    fs.writeFileSync(file, 'not a key\n');
    expect(() => readSecretKey(dataDir, null)).toThrow(StartupError);
    expect(() => readSecretKey(dataDir, null)).toThrow(/is malformed/);
    expect(fs.readFileSync(file, 'utf8')).toBe('not a key\n');
  });

  it('has no key when neither is there, and creates nothing', () => {
    expect(readSecretKey(dataDir, null)).toBeNull();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
