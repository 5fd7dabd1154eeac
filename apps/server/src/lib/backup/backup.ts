import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { sha256Hex } from '../crypto';
import {
  type BackupHeader,
  type BackupTrailer,
  MAGIC,
  type PartSummary,
  PartWriter,
  type TableInfo,
} from './format';
import { journal } from './migrations';

export type BackupResult = { file: string; header: BackupHeader; trailer: BackupTrailer };

/** Quotes an identifier the way PostgreSQL does (names here come from the catalogue). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Which key a backup needs, without revealing it: the first 16 hex digits of SHA-256 over
 * the key's hex text, the fingerprint the start-up key check prints (lib/crypto.ts), so the
 * operator matches a kept key file with `tr -d '\n' < secret.key | sha256sum | cut -c1-16`.
 */
export function fingerprintOf(key: Buffer): string {
  return sha256Hex(key.toString('hex')).slice(0, 16);
}

/**
 * Tables the app makes at start, outside the migrations (the key check's row, made before
 * migrations so a wrong key changes nothing). A restore cannot create them from the
 * migrations, so they are left out; the first start makes them again (decision 0016).
 */
export const APP_MANAGED_TABLES = new Set(['coffer_key_check']);

/** The public schema's tables with their columns in order (what COPY names). */
export async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.is_generated = 'NEVER'
      GROUP BY c.table_name ORDER BY c.table_name`,
  );
  return rows
    .filter((r) => !APP_MANAGED_TABLES.has(r.table_name))
    .map((r) => ({ name: r.table_name, columns: r.columns }));
}

/** The last applied migration, named by its file's tag from the journal. */
export async function migrationLevel(
  client: pg.ClientBase,
): Promise<{ tag: string; count: number } | null> {
  const exists = await client.query(
    "SELECT 1 FROM pg_tables WHERE schemaname = 'drizzle' AND tablename = '__drizzle_migrations'",
  );
  if (exists.rowCount === 0) return null;
  const { rows } = await client.query<{ count: number; last: string | null }>(
    'SELECT count(*)::int AS count, max(created_at)::text AS last FROM drizzle.__drizzle_migrations',
  );
  const count = rows[0]?.count ?? 0;
  const last = rows[0]?.last ?? null;
  if (count === 0 || last === null) return null;
  const entry = journal().find((e) => String(e.when) === last);
  // A database migrated by a newer Coffer than this one: its level has no tag here.
  return { tag: entry?.tag ?? `unknown (${last})`, count };
}

/** Every file under `root`, as store keys; temporaries of an interrupted write are left out. */
export async function listFiles(root: string): Promise<string[]> {
  if (!fs.existsSync(root)) return [];
  const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.endsWith('.tmp'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * A consistent online backup: every table read in one REPEATABLE READ, READ ONLY
 * transaction (one snapshot, while the app keeps writing), with `COPY … TO STDOUT`; then
 * the sequences (read after the rows, so at least as far as any id backed up), the private
 * files, and the trailer of checksums and counts. Written to `out.partial` and renamed
 * when complete, so a file named `out` is always a whole backup.
 */
export async function createBackup(opts: {
  pool: pg.Pool;
  /**
   * The key the app runs with (never written: its fingerprint is). The database's own
   * key-check row, when it has one, names the key instead.
   */
  key: { key: Buffer; source: string } | null;
  filesDir: string;
  out: string;
  cofferVersion: string;
}): Promise<BackupResult> {
  const out = path.resolve(opts.out);
  if (fs.existsSync(out)) throw new BackupTargetError(`${out} already exists; not overwritten.`);
  const partial = `${out}.partial`;
  const gzip = createGzip({ level: 3 });
  const file = fs.createWriteStream(partial, { mode: 0o600 });
  gzip.pipe(file);
  const writer = new PartWriter(gzip);
  const client = await opts.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    // The backup's time is its snapshot's, not the end of a copy that may take minutes: the
    // transaction's start (now()), read by the first statement, which is the one that takes
    // the snapshot. Everything committed before that time is in the backup; truncated to the
    // millisecond, the stated time is never after the snapshot.
    const snapshotAt = (
      await client.query<{ at: Date }>("SELECT date_trunc('milliseconds', now()) AS at")
    ).rows[0]?.at;
    if (!snapshotAt) throw new Error('the database did not say its time');
    const level = await migrationLevel(client);
    if (!level) throw new BackupTargetError('The database has no Coffer schema to back up.');
    const tables = await listTables(client);
    const version = await client.query<{ v: string }>('SHOW server_version');
    const hasCheck = await client.query(
      "SELECT 1 WHERE to_regclass('public.coffer_key_check') IS NOT NULL",
    );
    const stored = hasCheck.rowCount
      ? await client.query<{ fingerprint: string }>('SELECT fingerprint FROM coffer_key_check')
      : { rows: [] };
    const fingerprint = stored.rows[0]?.fingerprint ?? (opts.key && fingerprintOf(opts.key.key));
    if (!fingerprint) throw new BackupTargetError('No secret key is configured for this database.');
    const header: BackupHeader = {
      kind: 'header',
      createdAt: snapshotAt.toISOString(),
      cofferVersion: opts.cofferVersion,
      postgresVersion: version.rows[0]?.v ?? 'unknown',
      migration: level,
      key: { fingerprint, source: keySourceName(opts.key?.source ?? 'DATA_DIR/secret.key') },
      tables,
    };
    await writer.line(MAGIC);
    await writer.line(header);
    const parts: PartSummary[] = [];
    for (const table of tables) {
      const stream = client.query(
        copyTo(`COPY ${ident(table.name)} (${table.columns.map(ident).join(', ')}) TO STDOUT`),
      );
      const written = await writer.part({ part: 'table', name: table.name }, stream);
      // The stream ends at the COPY's last row, but its row count comes with the server's
      // "COPY n" after that, which a busy connection may deliver later. The connection runs
      // the next query only once the COPY is complete, so one round trip settles the count.
      await client.query('SELECT 1');
      parts.push({ part: 'table', name: table.name, ...written, rows: stream.rowCount });
    }
    // Files are copied while the snapshot is still open, to keep the window in which a row
    // and its file could disagree as short as possible (decision 0016).
    for (const key of await listFiles(opts.filesDir)) {
      const full = path.join(opts.filesDir, ...key.split('/'));
      let bytes: Buffer;
      try {
        bytes = await fsp.readFile(full);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const written = await writer.part({ part: 'file', key }, [bytes]);
      parts.push({ part: 'file', key, ...written });
    }
    const seq = await client.query<{ name: string; last_value: string | null }>(
      "SELECT sequencename AS name, last_value::text FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1",
    );
    await client.query('COMMIT');
    const trailer: BackupTrailer = {
      kind: 'trailer',
      parts,
      sequences: seq.rows.map((r) => ({ name: r.name, lastValue: r.last_value })),
    };
    await writer.line(trailer);
    gzip.end();
    await finished(file);
    await fsp.rename(partial, out);
    return { file: out, header, trailer };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    gzip.destroy();
    file.destroy();
    await fsp.rm(partial, { force: true });
    throw err;
  } finally {
    client.release();
  }
}

/** A refusal about where a backup goes or comes from: the operator can act on it. */
export class BackupTargetError extends Error {}

/** Where the key was, said without a machine's path: the variable or the key file. */
function keySourceName(source: string): string {
  return source === 'COFFER_SECRET_KEY' ? 'COFFER_SECRET_KEY' : 'DATA_DIR/secret.key';
}
