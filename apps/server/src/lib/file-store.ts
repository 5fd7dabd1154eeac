import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Private file storage (DEVIATIONS S5): identity documents and chat attachments are never
 * public. Files are addressed by a key such as `kyc-documents/{userId}/front-…` and are
 * only ever served by an authenticated route. The interface is what a future object-store
 * implementation would provide as well; this one keeps files on the server's disk.
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

/** Files under `dir` (the server uses DATA_DIR/files): folders 0700, files 0600. */
export function createFileStore(dir: string): FileStore {
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
