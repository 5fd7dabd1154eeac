import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Secrets } from './crypto';

/**
 * Private file storage (product.md S5): identity documents and chat attachments are never
 * public. Files are addressed by a key such as `kyc-documents/{userId}/front-…` and are
 * only ever served by an authenticated route. The app keeps them in the database
 * (`createDatabaseFileStore`), so every instance reads what any stored and a backup holds
 * them; the disk store is what installs before that kept, read once to import them.
 */
export type FileStore = {
  /** Stores bytes under a key, replacing what was there; the write is atomic. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The stored bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes one file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix/` (a folder of keys). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Every file stored under `prefix/`, with when it was last written: what the sweep of
   * unreferenced files reads. Temporary files of an interrupted write are listed too.
   */
  list(prefix: string): Promise<StoredFile[]>;
};

export type StoredFile = { key: string; modifiedAt: Date };

const KEY_PATTERN = /^[A-Za-z0-9._/-]+$/;
const MAX_KEY_LENGTH = 512;

/** Throws unless `key` is a plain relative path of safe characters with no `.`/`..` parts. */
export function assertValidKey(key: string): void {
  const fail = () => {
    throw new Error('Invalid file key');
  };
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) fail();
  if (key.startsWith('/') || key.endsWith('/')) fail();
  for (const part of key.split('/')) {
    if (part === '' || part === '.' || part === '..') fail();
  }
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** Files under `dir` (installs before the database store: DATA_DIR/files): folders 0700, files 0600. */
export function createDiskFileStore(dir: string): FileStore {
  const root = path.resolve(dir);

  const pathOf = (key: string): string => {
    assertValidKey(key);
    const full = path.resolve(root, key);
    // Belt and braces: the key rules above already make escaping the root impossible.
    if (!full.startsWith(root + path.sep)) throw new Error('Invalid file key');
    return full;
  };

  const ensureDir = async (folder: string) => {
    await fs.mkdir(root, { recursive: true, mode: 0o700 });
    await fs.chmod(root, 0o700);
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  };

  return {
    async put(key, bytes) {
      const full = pathOf(key);
      await ensureDir(path.dirname(full));
      // Write a temporary sibling, then rename: readers see the old file or the whole new
      // one, never a half-written file.
      const temp = `${full}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.writeFile(temp, bytes, { mode: 0o600, flag: 'wx' });
        await fs.rename(temp, full);
      } catch (err) {
        await fs.rm(temp, { force: true });
        throw err;
      }
    },

    async get(key) {
      const full = pathOf(key);
      try {
        return await fs.readFile(full);
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      await fs.rm(pathOf(key), { force: true });
    },

    async deletePrefix(prefix) {
      const trimmed = prefix.replace(/\/+$/, '');
      await fs.rm(pathOf(trimmed), { recursive: true, force: true });
    },

    async list(prefix) {
      const base = pathOf(prefix.replace(/\/+$/, ''));
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(base, { recursive: true, withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return [];
        throw err;
      }
      const out: StoredFile[] = [];
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const full = path.join(entry.parentPath, entry.name);
        try {
          const stat = await fs.stat(full);
          out.push({
            key: path.relative(root, full).split(path.sep).join('/'),
            modifiedAt: stat.mtime,
          });
        } catch (err) {
          // Removed between the listing and now: nothing to report.
          if (!isMissing(err)) throw err;
        }
      }
      return out;
    },
  };
}

/**
 * Files in the `stored_files` table, encrypted with the app's key. A write is one upsert
 * (atomic: readers see the old content or the new); keys are checked as on disk.
 */
export function createDatabaseFileStore(pool: pg.Pool, secrets: Secrets): FileStore {
  const folderOf = (prefix: string) => {
    const trimmed = prefix.replace(/\/+$/, '');
    assertValidKey(trimmed);
    return `${trimmed}/`;
  };
  return {
    async put(key, bytes) {
      assertValidKey(key);
      await pool.query(
        `INSERT INTO stored_files (key, content_encrypted, size_bytes) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET content_encrypted = EXCLUDED.content_encrypted,
           size_bytes = EXCLUDED.size_bytes, modified_at = now()`,
        [key, secrets.encrypt(bytes.toString('base64')), bytes.length],
      );
    },

    async get(key) {
      assertValidKey(key);
      const { rows } = await pool.query<{ content: string }>(
        'SELECT content_encrypted AS content FROM stored_files WHERE key = $1',
        [key],
      );
      const row = rows[0];
      return row ? Buffer.from(secrets.decrypt(row.content), 'base64') : null;
    },

    async delete(key) {
      assertValidKey(key);
      await pool.query('DELETE FROM stored_files WHERE key = $1', [key]);
    },

    async deletePrefix(prefix) {
      await pool.query('DELETE FROM stored_files WHERE starts_with(key, $1)', [folderOf(prefix)]);
    },

    async list(prefix) {
      const { rows } = await pool.query<{ key: string; modified_at: Date }>(
        'SELECT key, modified_at FROM stored_files WHERE starts_with(key, $1) ORDER BY key',
        [folderOf(prefix)],
      );
      return rows.map((r) => ({ key: r.key, modifiedAt: r.modified_at }));
    },
  };
}

/**
 * Copies the files an install kept on disk (before the database store) into the database,
 * once: a file already in the database is left as it is, so a restart imports nothing twice.
 * The disk copies stay where they are (the operator removes them after a backup). How many
 * were imported.
 */
export async function importDiskFiles(
  disk: FileStore,
  into: FileStore,
  prefixes: readonly string[],
): Promise<number> {
  let imported = 0;
  for (const prefix of prefixes) {
    for (const file of await disk.list(prefix)) {
      // Leftovers of an interrupted write on disk were never a file anyone named.
      if (file.key.endsWith('.tmp')) continue;
      if ((await into.get(file.key)) !== null) continue;
      const bytes = await disk.get(file.key);
      if (bytes === null) continue;
      await into.put(file.key, bytes);
      imported++;
    }
  }
  return imported;
}
