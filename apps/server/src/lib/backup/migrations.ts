import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '@server/db/client';
import { MIGRATIONS_DIR } from '@server/db/migrate';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

export type JournalEntry = { idx: number; when: number; tag: string };

/** The committed migrations, oldest first (drizzle's journal). */
export function journal(): JournalEntry[] {
  const text = fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: JournalEntry[] }).entries;
}

/**
 * Applies the migrations up to and including `tag`, not beyond: a backup's rows fit the
 * schema of its own level. Later migrations run when the app next starts, on the restored
 * rows, as they would have on the original database. Drizzle reads a folder, so it is given
 * a copy holding the journal cut at `tag` (same files, so the same recorded hashes).
 */
export async function migrateTo(pool: pg.Pool, tag: string): Promise<void> {
  const entries = journal();
  const at = entries.findIndex((e) => e.tag === tag);
  if (at < 0) throw new Error(`unknown migration ${tag}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-restore-migrations-'));
  try {
    fs.mkdirSync(path.join(dir, 'meta'));
    const journalFile = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: JournalEntry[] };
    journalFile.entries = entries.slice(0, at + 1);
    fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journalFile));
    for (const e of journalFile.entries) {
      fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
    }
    await migrate(createDb(pool), { migrationsFolder: dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
