import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { assertValidKey } from '../file-store';
import { BackupTargetError, ident, listTables, migrationLevel } from './backup';
import {
  BackupFormatError,
  type BackupHeader,
  type BackupTrailer,
  MAGIC,
  type PartHeader,
  PartReader,
  type PartSummary,
} from './format';
import { journal, migrateTo } from './migrations';

export type RestoreResult = {
  header: BackupHeader;
  rows: Record<string, number>;
  files: number;
  /**
   * Mails that were queued and not yet sent at the snapshot: set aside unless
   * `resendPendingMail` (they may have gone out after the snapshot was taken).
   */
  pendingMail: number;
};

/** What a set-aside mail's row says, for an operator who finds it undone in the outbox. */
export const NOT_RESENT_AFTER_RESTORE =
  'not re-sent after a restore: it may have gone out after the backup was taken';

/** Reads and checks the beginning of a backup file: magic line and header. */
async function openBackup(file: string): Promise<{ reader: PartReader; header: BackupHeader }> {
  if (!fs.existsSync(file)) throw new BackupTargetError(`No backup file at ${file}.`);
  const gunzip = fs.createReadStream(file).pipe(createGunzip());
  const reader = new PartReader(gunzip);
  const magic = await reader.line().catch((err) => {
    gunzip.destroy();
    throw err;
  });
  if (magic !== MAGIC) {
    gunzip.destroy();
    throw new BackupFormatError(`${file} is not a Coffer backup.`);
  }
  const header = await reader.json<BackupHeader>();
  if (header.kind !== 'header' || !Array.isArray(header.tables)) {
    gunzip.destroy();
    throw new BackupFormatError('The backup file is damaged (no header).');
  }
  return { reader, header };
}

/** Reads only a backup's header: what `restore` prints before it starts. */
export async function readBackupHeader(file: string): Promise<BackupHeader> {
  return (await openBackup(file)).header;
}

/**
 * Reads a whole backup and checks every part against the trailer, writing nothing: a
 * damaged or truncated file is refused before a restore touches its target.
 */
export async function verifyBackup(
  file: string,
): Promise<{ header: BackupHeader; trailer: BackupTrailer }> {
  const { reader, header } = await openBackup(path.resolve(file));
  const read: PartSummary[] = [];
  for (;;) {
    const next = await reader.json<PartHeader | BackupTrailer>();
    if ('kind' in next) {
      if (next.kind !== 'trailer') throw new BackupFormatError('The backup file is damaged.');
      checkAgainstTrailer(read, next);
      return { header, trailer: next };
    }
    if (next.part !== 'table' && next.part !== 'file')
      throw new BackupFormatError('The backup file is damaged (an unknown part).');
    const part = reader.chunks();
    for await (const _ of part.chunks) {
      // Only hashed.
    }
    read.push({ ...next, ...part.done() });
  }
}

/** Whether any table of the public schema holds a row. */
async function hasRows(client: pg.ClientBase): Promise<string | null> {
  for (const t of await listTables(client)) {
    const { rowCount } = await client.query(`SELECT 1 FROM ${ident(t.name)} LIMIT 1`);
    if (rowCount) return t.name;
  }
  return null;
}

/**
 * Restores a backup into an empty database and files folder. Checked before anything is
 * written: every part's checksum (one read of the whole file), that this Coffer knows its migration level, that the key
 * here (if any) is the one the backup needs, and that the target is empty. Then the
 * migrations up to the backup's level, and every row in ONE transaction with
 * `session_replication_role = replica` (triggers and foreign-key checks off: decision 0016);
 * files go to a staging folder. Checksums and row counts are compared with the trailer
 * before the commit; a mismatch rolls every row back and removes the staged files.
 */
export async function restoreBackup(opts: {
  file: string;
  pool: pg.Pool;
  filesDir: string;
  /** The fingerprint of the key configured where the backup is restored, if one is. */
  keyHere: string | null;
  /** Leave the mails pending at the snapshot queued, to be sent at the next start. */
  resendPendingMail?: boolean;
}): Promise<RestoreResult> {
  const file = path.resolve(opts.file);
  await verifyBackup(file);
  const { reader, header } = await openBackup(file);
  if (!journal().some((e) => e.tag === header.migration.tag)) {
    throw new BackupTargetError(
      `The backup is at migration ${header.migration.tag}, which this version of Coffer does not have: restore it with the version that made it (${header.cofferVersion}) or a later one.`,
    );
  }
  if (opts.keyHere !== null && opts.keyHere !== header.key.fingerprint) {
    throw new BackupTargetError(
      `The secret key here (fingerprint ${opts.keyHere}) is not the one this backup needs (fingerprint ${header.key.fingerprint}). Remove it or set the backup's key; nothing was restored.`,
    );
  }
  if (nonEmptyDir(opts.filesDir)) {
    throw new BackupTargetError(
      `${opts.filesDir} is not empty: restore into a new DATA_DIR. Nothing was restored.`,
    );
  }
  {
    const client = await opts.pool.connect();
    try {
      const level = await migrationLevel(client);
      if (level && level.count > header.migration.count) {
        throw new BackupTargetError(
          `The database is already migrated past the backup's level (${level.tag}): restore into an empty database. Nothing was restored.`,
        );
      }
      const table = await hasRows(client);
      if (table) {
        throw new BackupTargetError(
          `The database is not empty (table ${table} has rows): restore into an empty database. Nothing was restored.`,
        );
      }
    } finally {
      client.release();
    }
  }

  await migrateTo(opts.pool, header.migration.tag);

  const staging = path.join(
    path.dirname(opts.filesDir),
    `.restoring-files-${randomBytes(4).toString('hex')}`,
  );
  const client = await opts.pool.connect();
  let committed = false;
  try {
    await client.query('BEGIN');
    try {
      await client.query('SET LOCAL session_replication_role = replica');
    } catch (err) {
      throw new BackupTargetError(
        `The database user may not set session_replication_role, which a restore needs (${(err as Error).message}). Restore as a superuser, or GRANT SET ON PARAMETER session_replication_role to this user.`,
      );
    }
    const targetTables = new Map((await listTables(client)).map((t) => [t.name, t]));
    for (const t of header.tables) {
      const here = targetTables.get(t.name);
      if (!here || here.columns.join(',') !== t.columns.join(',')) {
        throw new BackupFormatError(
          `Table ${t.name} of the backup does not match this schema at ${header.migration.tag}.`,
        );
      }
    }
    const deferred = await dropPlainIndexes(client);
    const read: PartSummary[] = [];
    const rows: Record<string, number> = {};
    let files = 0;
    let trailer: BackupTrailer | null = null;
    while (!trailer) {
      const next = await reader.json<PartHeader | BackupTrailer>();
      if ('kind' in next) {
        if (next.kind !== 'trailer') throw new BackupFormatError('The backup file is damaged.');
        trailer = next;
        break;
      }
      const part = reader.chunks();
      if (next.part === 'table') {
        const table = header.tables.find((t) => t.name === next.name);
        if (!table) throw new BackupFormatError(`The backup names an unknown table ${next.name}.`);
        const copy = client.query(
          copyFrom(`COPY ${ident(table.name)} (${table.columns.map(ident).join(', ')}) FROM STDIN`),
        );
        await pipeline(Readable.from(part.chunks), copy);
        rows[table.name] = copy.rowCount;
        read.push({ ...next, ...part.done(), rows: copy.rowCount });
      } else if (next.part === 'file') {
        try {
          assertValidKey(next.key);
        } catch {
          throw new BackupFormatError(`The backup names an invalid file ${next.key}.`);
        }
        const full = path.join(staging, ...next.key.split('/'));
        await fsp.mkdir(path.dirname(full), { recursive: true, mode: 0o700 });
        await pipeline(Readable.from(part.chunks), fs.createWriteStream(full, { mode: 0o600 }));
        files += 1;
        read.push({ ...next, ...part.done() });
      } else {
        throw new BackupFormatError('The backup file is damaged (an unknown part).');
      }
    }
    checkAgainstTrailer(read, trailer);
    for (const index of deferred) await client.query(index);
    for (const s of trailer.sequences) {
      await client.query('SELECT setval($1::regclass, $2, $3)', [
        `public.${ident(s.name)}`,
        s.lastValue ?? '1',
        s.lastValue !== null,
      ]);
    }
    const pendingMail = header.tables.some((t) => t.name === 'outbox')
      ? await setAsidePendingMail(client, !opts.resendPendingMail)
      : 0;
    await client.query('COMMIT');
    committed = true;
    if (fs.existsSync(staging)) {
      fs.rmSync(opts.filesDir, { recursive: true, force: true });
      await fsp.mkdir(path.dirname(opts.filesDir), { recursive: true });
      await fsp.rename(staging, opts.filesDir);
      await fsp.chmod(opts.filesDir, 0o700);
    }
    return { header, rows, files, pendingMail };
  } catch (err) {
    if (!committed) await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Counts the mails queued and not yet sent at the snapshot (the outbox's undone rows that
 * are still due some time), and with `setAside` marks them as the outbox marks a row it
 * gave up on: never due again, the reason kept, found by `done_at IS NULL`. The running
 * Coffer may have sent them after the snapshot; a restore sends them again only if asked.
 */
async function setAsidePendingMail(client: pg.PoolClient, setAside: boolean): Promise<number> {
  const pending = "kind = 'mail' AND done_at IS NULL AND next_attempt_at <> 'infinity'";
  if (setAside) {
    const res = await client.query(
      `UPDATE outbox SET next_attempt_at = 'infinity', last_error = $1 WHERE ${pending}`,
      [NOT_RESENT_AFTER_RESTORE],
    );
    return res.rowCount ?? 0;
  }
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM outbox WHERE ${pending}`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Indexes that no constraint uses (neither a key nor a foreign key's target) are dropped for
 * the copy and built again after it, in the same transaction: one sort per index instead of
 * a million insertions. A unique one checks its rows as it is built; a failure rolls back
 * the drop with everything else. Returns the statements that build them again.
 */
async function dropPlainIndexes(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT format('%I.%I', n.nspname, ic.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = ic.relnamespace
      WHERE n.nspname = 'public'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
      ORDER BY 1`,
  );
  for (const r of rows) await client.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.def);
}

function nonEmptyDir(dir: string): boolean {
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
}

const partName = (p: PartHeader) => (p.part === 'table' ? `table ${p.name}` : `file ${p.key}`);

/** Every part the trailer lists was read, whole, with its checksum and row count. */
function checkAgainstTrailer(read: PartSummary[], trailer: BackupTrailer): void {
  if (read.length !== trailer.parts.length) {
    throw new BackupFormatError(
      `The backup file is damaged: ${read.length} parts read, ${trailer.parts.length} listed.`,
    );
  }
  trailer.parts.forEach((want, i) => {
    const got = read[i];
    if (!got || partName(got) !== partName(want)) {
      throw new BackupFormatError(`The backup file is damaged: ${partName(want)} is missing.`);
    }
    if (got.sha256 !== want.sha256 || got.bytes !== want.bytes) {
      throw new BackupFormatError(
        `The backup file is damaged: the checksum of ${partName(want)} does not match.`,
      );
    }
    // Rows are counted only when restoring (COPY says how many it wrote).
    if (want.rows !== undefined && got.rows !== undefined && got.rows !== want.rows) {
      throw new BackupFormatError(
        `${partName(want)}: ${got.rows} rows restored, ${want.rows} backed up.`,
      );
    }
  });
}
