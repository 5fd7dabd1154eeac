import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BARE_COMMANDS } from '../src/cli-commands';
import { loadConfig } from '../src/config';
import { createPool } from '../src/db/client';
import { withTransaction } from '../src/db/tx';
import { createLogger } from '../src/infra';
import { BackupTargetError, createBackup, fingerprintOf } from '../src/lib/backup/backup';
import { BackupFormatError } from '../src/lib/backup/format';
import { NOT_RESENT_AFTER_RESTORE, restoreBackup, verifyBackup } from '../src/lib/backup/restore';
import { createDatabaseFileStore } from '../src/lib/file-store';
import type { Mail } from '../src/lib/mailer';
import { createAuditLog } from '../src/modules/audit';
import { createLedger } from '../src/modules/ledger';
import { createOutbox } from '../src/modules/outbox';
import { freePort } from './free-port';
import { createTestApp, type TestApp, verifiedAdmin, verifiedCustomer } from './helpers';
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestWithdrawal,
  setSetting,
} from './money-helpers';

const LEGACY_FILE = 'kyc-documents/legacy/front-1.bin';
const LEGACY_BYTES = Buffer.from('legacy file kept on disk before the database store');
const STORED_FILE = 'chat-attachments/room-1/photo-1.png';
const STORED_BYTES = randomBytes(300_000);

let t: TestApp;
let work: string;
const pools: pg.Pool[] = [];
const databases: string[] = [];

/** A new, empty database on the test cluster (no template, no migrations), and its URL. */
async function newDatabase(): Promise<{ pool: pg.Pool; url: string }> {
  const name = `r_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${inject('pgServerUrl')}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  databases.push(name);
  const url = `${inject('pgServerUrl')}/${name}`;
  const pool = createPool(url);
  pools.push(pool);
  return { pool, url };
}

async function emptyDatabase(): Promise<pg.Pool> {
  return (await newDatabase()).pool;
}

/** Every table's rows as text, in a stable order: to prove a refusal changed nothing. */
async function everything(pool: pg.Pool): Promise<Record<string, string>> {
  const { rows: tables } = await pool.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname IN ('public', 'drizzle') ORDER BY 1",
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const schema = name === '__drizzle_migrations' ? 'drizzle' : 'public';
    const { rows } = await pool.query<{ json: string }>(
      `SELECT coalesce(json_agg(r ORDER BY r::text), '[]')::text AS json FROM ${schema}.${pg.escapeIdentifier(name)} r`,
    );
    out[name] = rows[0]?.json ?? '[]';
  }
  return out;
}

async function countOf(pool: pg.Pool, table: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(table)}`,
  );
  return rows[0]?.n ?? -1;
}

beforeAll(async () => {
  t = await createTestApp();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-backup-test-'));
  // The embedded PostgreSQL of the CLI test may run as another user, as in global-setup.
  fs.chmodSync(work, 0o755);
  // A file an install kept on disk before files moved into the database: backed up too.
  const legacy = path.join(t.dataDir, 'files', ...LEGACY_FILE.split('/'));
  fs.mkdirSync(path.dirname(legacy), { recursive: true });
  fs.writeFileSync(legacy, LEGACY_BYTES);
  // And one in the app's own store (the database), as every upload is kept now.
  await t.services.files.put(STORED_FILE, STORED_BYTES);
});

afterAll(async () => {
  // A CLI run killed on its time limit leaves its embedded PostgreSQL behind: stopped here.
  for (const dir of fs.existsSync(work ?? '') ? fs.readdirSync(work) : []) {
    const pidFile = path.join(work, dir, 'pg', 'postmaster.pid');
    if (!fs.existsSync(pidFile)) continue;
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    try {
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // Already gone.
    }
  }
  for (const pool of pools) await pool.end();
  const admin = new pg.Client({ connectionString: `${inject('pgServerUrl')}/postgres` });
  await admin.connect();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  fs.rmSync(work, { recursive: true, force: true });
  await t?.close();
});

describe('online backup and restore', () => {
  let file: string;
  let snapshotRows: Record<string, number>;

  it('backs up a consistent snapshot while withdrawals and audit rows are being written', async () => {
    const admin = await verifiedAdmin(t);
    const customers = await Promise.all(Array.from({ length: 4 }, () => verifiedCustomer(t)));
    for (const c of customers) await fund(t, c.userId, 'BTC', '10');
    const key = randomBytes(32);

    // Load: each customer asks for withdrawals one after another, all four at once, and
    // an admin writes audit rows, until the backup is done.
    let backupDone = false;
    let accepted = 0;
    const withdrawing = customers.map(async (c) => {
      while (!backupDone) {
        const res = await requestWithdrawal(t, c, {
          assetId: 'BTC',
          amount: '0.01',
          address: GOOD_ADDRESS.BTC,
        });
        expect(res.statusCode, res.body).toBe(200);
        accepted += 1;
      }
    });
    const auditing = (async () => {
      while (!backupDone) {
        await withTransaction(t.services.pool, (client) =>
          t.services.audit.record(client, {
            actorId: admin.userId,
            action: 'backup.test',
            targetType: 'user',
            targetId: admin.userId,
            targetUserId: null,
            reason: 'load during a backup',
            ip: null,
          }),
        );
      }
    })();
    while (accepted < 4) await new Promise((r) => setTimeout(r, 20));
    const before = accepted;
    file = path.join(work, 'coffer.backup');
    const result = await createBackup({
      pool: t.services.pool,
      key: { key, source: 'COFFER_SECRET_KEY' },
      filesDir: path.join(t.dataDir, 'files'),
      out: file,
      cofferVersion: 'test',
    }).finally(() => {
      backupDone = true;
    });
    await Promise.all([...withdrawing, auditing]);

    expect(fs.existsSync(file)).toBe(true);
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
    expect(result.header.key).toEqual({
      fingerprint: fingerprintOf(key),
      source: 'COFFER_SECRET_KEY',
    });
    // The key is never in the file, in any form a reader could use.
    const plain = gunzipSync(fs.readFileSync(file));
    expect(plain.includes(key.toString('hex'))).toBe(false);
    expect(plain.includes(key)).toBe(false);

    snapshotRows = Object.fromEntries(
      result.trailer.parts.flatMap((p) => (p.part === 'table' ? [[p.name, p.rows ?? -1]] : [])),
    );
    // Under load: rows were written before and after the snapshot.
    const withdrawalsInBackup = snapshotRows.transactions ?? 0;
    expect(accepted).toBeGreaterThan(before);
    expect(withdrawalsInBackup).toBeGreaterThanOrEqual(4 + before);
    expect(await countOf(t.services.pool, 'transactions')).toBeGreaterThan(withdrawalsInBackup);
    expect(result.trailer.parts.filter((p) => p.part === 'file').map((p) => p.key)).toEqual([
      LEGACY_FILE,
    ]);
    await expectReconciled(t);
  });

  it('restores into an empty database and DATA_DIR: counts, reconciliation, audit chain, files', async () => {
    const pool = await emptyDatabase();
    const dataDir = path.join(work, 'restored');
    const started = Date.now();
    const result = await restoreBackup({
      file,
      pool,
      filesDir: path.join(dataDir, 'files'),
      keyHere: null,
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.rows).toEqual(snapshotRows);
    for (const [table, rows] of Object.entries(snapshotRows)) {
      expect(await countOf(pool, table), table).toBe(rows);
    }
    // Every restored ledger row is the original, unchanged.
    const ids = await pool.query<{ id: string }>('SELECT id FROM transactions');
    const pick = (p: pg.Pool) =>
      p
        .query<{ j: string }>(
          'SELECT json_agg(t ORDER BY t.id)::text AS j FROM transactions t WHERE t.id = ANY($1)',
          [ids.rows.map((r) => r.id)],
        )
        .then((r) => r.rows[0]?.j);
    expect(await pick(pool)).toBe(await pick(t.services.pool));

    // The indexes set aside for the copy are all built again, as the migrations made them.
    const indexes = (p: pg.Pool) =>
      p
        .query<{ def: string }>(
          "SELECT indexdef AS def FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'coffer_key_check' ORDER BY 1",
        )
        .then((r) => r.rows.map((x) => x.def));
    expect(await indexes(pool)).toEqual(await indexes(t.services.pool));
    expect(await createLedger().reconcile(pool)).toEqual([]);
    const audit = await createAuditLog().verify(pool);
    expect(audit).toMatchObject({ ok: true, rows: snapshotRows.audit_log });
    // Sequences continue after the restored ids: the next audit row is appended, not refused.
    const next = await pool.query<{ ok: boolean }>(
      "SELECT nextval('audit_log_id_seq') > (SELECT max(id) FROM audit_log) AS ok",
    );
    expect(next.rows[0]?.ok).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'files', ...LEGACY_FILE.split('/')))).toEqual(
      LEGACY_BYTES,
    );
    expect(await createDatabaseFileStore(pool, t.services.secrets).get(STORED_FILE)).toEqual(
      STORED_BYTES,
    );
    expect(fs.readdirSync(work).filter((f) => f.startsWith('.restoring'))).toEqual([]);
  });

  it('refuses a database that is not empty, and changes nothing', async () => {
    const target = path.join(work, 'again');
    const before = await everything(t.services.pool);
    await expect(
      restoreBackup({
        file,
        pool: t.services.pool,
        filesDir: path.join(target, 'files'),
        keyHere: null,
      }),
    ).rejects.toThrow(/not empty/);
    expect(await everything(t.services.pool)).toEqual(before);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a DATA_DIR that already holds files, and a different key, changing nothing', async () => {
    const pool = await emptyDatabase();
    const used = path.join(work, 'used');
    fs.mkdirSync(path.join(used, 'files'), { recursive: true });
    fs.writeFileSync(path.join(used, 'files', 'other'), 'x');
    await expect(
      restoreBackup({ file, pool, filesDir: path.join(used, 'files'), keyHere: null }),
    ).rejects.toThrow(BackupTargetError);
    await expect(
      restoreBackup({
        file,
        pool,
        filesDir: path.join(work, 'wrong-key', 'files'),
        keyHere: fingerprintOf(randomBytes(32)),
      }),
    ).rejects.toThrow(/is not the one this backup needs/);
    expect(await everything(pool)).toEqual({});
    expect(fs.readdirSync(path.join(used, 'files'))).toEqual(['other']);
    expect(fs.existsSync(path.join(work, 'wrong-key'))).toBe(false);
  });

  it('refuses a damaged or truncated backup before it writes anything', async () => {
    const pool = await emptyDatabase();
    const plain = gunzipSync(fs.readFileSync(file));
    // One byte of the file part changed, the file still a valid gzip stream: the checksum.
    const at = plain.indexOf(LEGACY_BYTES);
    const altered = Buffer.from(plain);
    altered[at] = (altered[at] ?? 0) ^ 1;
    const damaged = path.join(work, 'damaged.backup');
    fs.writeFileSync(damaged, gzipSync(altered));
    await expect(verifyBackup(damaged)).rejects.toThrow(
      `the checksum of file ${LEGACY_FILE} does not match`,
    );
    const truncated = path.join(work, 'truncated.backup');
    fs.writeFileSync(truncated, gzipSync(plain.subarray(0, plain.length - 200)));
    const notBackup = path.join(work, 'not-a.backup');
    fs.writeFileSync(notBackup, 'just text');
    for (const bad of [damaged, truncated, notBackup]) {
      await expect(
        restoreBackup({
          file: bad,
          pool,
          filesDir: path.join(work, 'bad', 'files'),
          keyHere: null,
        }),
      ).rejects.toThrow(BackupFormatError);
    }
    expect(await everything(pool)).toEqual({});
    expect(fs.existsSync(path.join(work, 'bad'))).toBe(false);
  });

  it('npm run cli -- backup, then restore on a new DATA_DIR and audit-verify there with the key', async () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const cli = async (args: string[], env: Record<string, string>) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/cli.ts', ...args],
        {
          cwd: root,
          env: { ...process.env, LOG_LEVEL: 'silent', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      child.stderr.on('data', (d) => {
        out += d;
      });
      // Never left behind, even if the command hangs.
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      clearTimeout(timer);
      return { code, out };
    };
    const keyHex = t.secretKeyHex;
    if (!keyHex) throw new Error('createTestApp gives its key as secretKeyHex');
    const fingerprint = fingerprintOf(Buffer.from(keyHex, 'hex'));
    const cliFile = path.join(work, 'cli.backup');
    const backup = await cli(['backup', '--out', cliFile], {
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      COFFER_SECRET_KEY: keyHex,
    });
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain(`Backup written to ${cliFile}`);
    expect(backup.out).toContain(`needs the secret key with fingerprint ${fingerprint}`);
    expect(backup.out).not.toContain(keyHex);
    // Nothing written since the in-process backup: the same rows.
    const { header, trailer } = await verifyBackup(cliFile);
    expect(header.key.fingerprint).toBe(fingerprint);
    const rows = Object.fromEntries(
      trailer.parts.flatMap((p) => (p.part === 'table' ? [[p.name, p.rows ?? -1]] : [])),
    );

    // A new machine: an empty DATA_DIR with its own embedded PostgreSQL, and the key.
    const dataDir = path.join(work, 'cli-data');
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      EMBEDDED_PG_PORT: String(await freePort()),
      COFFER_SECRET_KEY: keyHex,
    };
    const restore = await cli(['restore', cliFile], env);
    expect(restore.code, restore.out).toBe(0);
    const total = Object.values(rows).reduce((a, b) => a + b, 0);
    expect(restore.out).toContain(`${total} rows in ${Object.keys(rows).length} tables, 1 files`);
    expect(restore.out).toContain('Ledger reconciled: every wallet balances.');
    expect(restore.out).toContain(`Audit log intact: ${rows.audit_log} rows.`);
    expect(restore.out).toContain(`The secret key here (fingerprint ${fingerprint}) is the one`);
    expect(fs.readFileSync(path.join(dataDir, 'files', ...LEGACY_FILE.split('/')))).toEqual(
      LEGACY_BYTES,
    );
    // The restored installation starts with its key (key check, later migrations) and its
    // audit chain verifies; a second restore onto it is refused.
    const verify = await cli(['audit-verify'], env);
    expect(verify.code, verify.out).toBe(0);
    expect(verify.out).toContain(`Audit log intact: ${rows.audit_log} rows.`);
    const again = await cli(['restore', cliFile], env);
    expect(again.code, again.out).toBe(1);
    expect(again.out).toContain('Nothing was restored.');
  }, 180_000);

  it('npm run cli -- restore with no key tells which key to bring, and makes none', async () => {
    const dataDir = path.join(work, 'cli-no-key');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli.ts', 'restore', file],
      {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          EMBEDDED_PG_PORT: String(await freePort()),
          COFFER_SECRET_KEY: '',
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    expect(code, out).toBe(0);
    const total = Object.values(snapshotRows).reduce((a, b) => a + b, 0);
    expect(out).toContain(`${total} rows in ${Object.keys(snapshotRows).length} tables, 1 files`);
    expect(out).toContain('Ledger reconciled: every wallet balances.');
    expect(out).toContain(`Audit log intact: ${snapshotRows.audit_log} rows.`);
    expect(out).toMatch(
      /needs the secret key with fingerprint [0-9a-f]{16} \(it was in COFFER_SECRET_KEY\)/,
    );
    // No key was made for the restored data: the operator brings the backup's key.
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, 'files', ...LEGACY_FILE.split('/')))).toEqual(
      LEGACY_BYTES,
    );
  }, 120_000);
});

describe("a backup's time and the mail waiting in it", () => {
  it('states the time of its snapshot: a row committed while it copies is not in it, and is later', async () => {
    const admin = await verifiedAdmin(t);
    const auditRow = (reason: string) =>
      withTransaction(t.services.pool, (client) =>
        t.services.audit.record(client, {
          actorId: admin.userId,
          action: 'backup.test',
          targetType: 'user',
          targetId: admin.userId,
          targetUserId: null,
          reason,
          ip: null,
        }),
      );
    await auditRow('before the backup');
    const before = await countOf(t.services.pool, 'audit_log');

    // The backup reads the key-check row after its snapshot is taken: a lock on that table
    // holds it there, snapshot open, while a row is written and committed.
    const holder = await t.services.pool.connect();
    let backup: ReturnType<typeof createBackup> | undefined;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE coffer_key_check IN ACCESS EXCLUSIVE MODE');
      backup = createBackup({
        pool: t.services.pool,
        key: null,
        filesDir: path.join(t.dataDir, 'files'),
        out: path.join(work, 'snapshot-time.backup'),
        cofferVersion: 'test',
      });
      backup.catch(() => {});
      await expect
        .poll(async () => {
          const { rowCount } = await t.services.pool.query(
            `SELECT 1 FROM pg_locks
              WHERE database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND relation = 'coffer_key_check'::regclass AND NOT granted`,
          );
          return rowCount;
        })
        .toBe(1);
      await auditRow('written while the backup runs');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    const result = await backup;
    if (!result) throw new Error('no backup was started');

    const inBackup = result.trailer.parts.find((p) => p.part === 'table' && p.name === 'audit_log');
    expect(inBackup?.rows).toBe(before);
    expect(await countOf(t.services.pool, 'audit_log')).toBe(before + 1);
    // Every row the backup holds was made at or before its stated time; the row written
    // during the copy, which it does not hold, after it.
    const { rows } = await t.services.pool.query<{ reason: string; after: boolean }>(
      `SELECT reason, created_at > $1::timestamptz AS after FROM audit_log
        WHERE action = 'backup.test' AND reason <> 'load during a backup' ORDER BY id`,
      [result.header.createdAt],
    );
    expect(rows).toEqual([
      { reason: 'before the backup', after: false },
      { reason: 'written while the backup runs', after: true },
    ]);
  });

  it('a restore does not re-send the mail waiting at the snapshot unless told to, and says so', async () => {
    // Two mails queued and not yet sent when the backup is taken.
    await withTransaction(t.services.pool, (client) =>
      t.services.outbox.mailMany(client, [
        { to: 'first@example.com', subject: 'Waiting 1', text: 'one' },
        { to: 'second@example.com', subject: 'Waiting 2', text: 'two' },
      ]),
    );
    const pendingQuery =
      "SELECT count(*)::int AS n FROM outbox WHERE kind = 'mail' AND done_at IS NULL AND next_attempt_at <> 'infinity'";
    const pending = (await t.services.pool.query<{ n: number }>(pendingQuery)).rows[0]?.n ?? -1;
    expect(pending).toBeGreaterThanOrEqual(2);
    const file = path.join(work, 'pending-mail.backup');
    await createBackup({
      pool: t.services.pool,
      key: null,
      filesDir: path.join(t.dataDir, 'files'),
      out: file,
      cofferVersion: 'test',
    });
    const keyHex = t.secretKeyHex;
    if (!keyHex) throw new Error('createTestApp gives its key as secretKeyHex');

    /** Restores with the CLI's restore, then delivers what the restored outbox holds. */
    const restoreAndDeliver = async (args: string[]) => {
      const { url, pool } = await newDatabase();
      const dataDir = path.join(work, `pending-${randomBytes(4).toString('hex')}`);
      const restore = BARE_COMMANDS.restore;
      if (!restore) throw new Error('no restore command');
      const said = await restore.run(
        {
          config: loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, COFFER_SECRET_KEY: keyHex }),
          databaseUrl: url,
        },
        [file, ...args],
      );
      const sent: Mail[] = [];
      const outbox = createOutbox({
        pool,
        secrets: t.services.secrets,
        mailer: {
          remote: false,
          send: async (mail) => {
            sent.push(mail);
          },
        },
        files: createDatabaseFileStore(pool, t.services.secrets),
        log: createLogger('silent'),
      });
      await outbox.deliver({ wait: 'all' });
      return { said, sent, pool };
    };

    const held = await restoreAndDeliver([]);
    expect(held.said).toContain(
      `${pending} mails were waiting at the snapshot; they were not re-sent, as they may have gone out already. To send them, restore into an empty database again with --resend-pending-mail.`,
    );
    expect(held.sent).toEqual([]);
    // Kept, undone, with the reason, for an operator who looks for them.
    const { rows } = await held.pool.query<{ n: number; reason: string }>(
      "SELECT count(*)::int AS n, min(last_error) AS reason FROM outbox WHERE kind = 'mail' AND done_at IS NULL AND next_attempt_at = 'infinity'",
    );
    expect(rows[0]).toEqual({ n: pending, reason: NOT_RESENT_AFTER_RESTORE });

    const resent = await restoreAndDeliver(['--resend-pending-mail']);
    expect(resent.said).toContain(
      `${pending} mails were waiting at the snapshot; they stay queued and go out when Coffer starts.`,
    );
    expect(resent.sent).toHaveLength(pending);
    expect(resent.sent.map((m) => m.subject)).toEqual(
      expect.arrayContaining(['Waiting 1', 'Waiting 2']),
    );
  });
});
