import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * The backup file: one gzip stream of
 *
 *   MAGIC line, header line (JSON),
 *   parts: a JSON line naming the part, then chunks (4-byte big-endian length + bytes),
 *          a zero length ending the part,
 *   trailer line (JSON): per part its byte count, SHA-256 and rows.
 *
 * Parts are streamed (a table's COPY output is never held in memory whole), so what is only
 * known at the end (checksums, counts) is in the trailer; what a restore needs before the
 * first row (migration level, key fingerprint, table columns) is in the header.
 */
export const MAGIC = 'COFFER-BACKUP 1';

const CHUNK_BYTES = 256 * 1024;

export type TableInfo = { name: string; columns: string[] };

export type BackupHeader = {
  kind: 'header';
  createdAt: string;
  cofferVersion: string;
  postgresVersion: string;
  /** The last migration applied (the tag of its file in apps/server/drizzle) and how many. */
  migration: { tag: string; count: number };
  /** Which server key the encrypted columns need: its fingerprint, never the key. */
  key: { fingerprint: string; source: string };
  tables: TableInfo[];
};

export type PartHeader = { part: 'table'; name: string } | { part: 'file'; key: string };

export type PartSummary = PartHeader & { bytes: number; sha256: string; rows?: number };

export type BackupTrailer = {
  kind: 'trailer';
  parts: PartSummary[];
  sequences: { name: string; lastValue: string | null }[];
};

/** Writes lines and chunked parts to a stream, honouring its back-pressure. */
export class PartWriter {
  constructor(private readonly out: Writable) {}

  async raw(bytes: Buffer): Promise<void> {
    if (!this.out.write(bytes)) await once(this.out, 'drain');
  }

  line(value: string | object): Promise<void> {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return this.raw(Buffer.from(`${text}\n`, 'utf8'));
  }

  /** One part from an async source of bytes; returns its size and checksum. */
  async part(
    header: PartHeader,
    source: AsyncIterable<Buffer | string> | Iterable<Buffer>,
  ): Promise<{ bytes: number; sha256: string }> {
    await this.line(header);
    const hash = createHash('sha256');
    let bytes = 0;
    // COPY sends a row per message: rows are gathered into chunks of about 256 KB, so the
    // file and its reader handle thousands of pieces, not millions.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const chunk = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      const len = Buffer.alloc(4);
      len.writeUInt32BE(chunk.length);
      await this.raw(len);
      await this.raw(chunk);
    };
    for await (const piece of source) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
      if (chunk.length === 0) continue;
      hash.update(chunk);
      bytes += chunk.length;
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
    }
    await flush();
    await this.raw(Buffer.alloc(4));
    return { bytes, sha256: hash.digest('hex') };
  }
}

/** A damaged, foreign or truncated backup file. */
export class BackupFormatError extends Error {}

const MAX_LINE = 64 * 1024 * 1024;

/** Reads lines and exact byte counts from an async stream of chunks (the gunzipped file). */
export class PartReader {
  private buffered: Buffer[] = [];
  private size = 0;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.source.next();
    } catch (err) {
      // zlib's own errors (Z_DATA_ERROR, Z_BUF_ERROR): the file is not what was written.
      if (String((err as NodeJS.ErrnoException).code ?? '').startsWith('Z_'))
        throw new BackupFormatError('The backup file is damaged or not a Coffer backup.');
      throw err;
    }
    if (next.done) return false;
    this.buffered.push(next.value);
    this.size += next.value.length;
    return true;
  }

  private take(n: number): Buffer {
    const [only] = this.buffered;
    const all = this.buffered.length === 1 && only ? only : Buffer.concat(this.buffered);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    return out;
  }

  async exact(n: number): Promise<Buffer> {
    while (this.size < n) {
      if (!(await this.fill())) throw new BackupFormatError('The backup file is truncated.');
    }
    return this.take(n);
  }

  async line(): Promise<string> {
    for (;;) {
      const [only] = this.buffered;
      const all = this.buffered.length === 1 && only ? only : Buffer.concat(this.buffered);
      this.buffered = all.length > 0 ? [all] : [];
      const at = all.indexOf(10);
      if (at >= 0) return this.take(at + 1).toString('utf8', 0, at);
      if (this.size > MAX_LINE) throw new BackupFormatError('The backup file is damaged.');
      if (!(await this.fill())) throw new BackupFormatError('The backup file is truncated.');
    }
  }

  async json<T>(): Promise<T> {
    const text = await this.line();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new BackupFormatError('The backup file is damaged (an unreadable record).');
    }
  }

  /** A part's chunks, hashed as they pass; `done()` tells size and checksum afterwards. */
  chunks(): { chunks: AsyncIterable<Buffer>; done(): { bytes: number; sha256: string } } {
    const hash: Hash = createHash('sha256');
    let bytes = 0;
    let finished = false;
    const self = this;
    return {
      chunks: {
        async *[Symbol.asyncIterator]() {
          for (;;) {
            const len = (await self.exact(4)).readUInt32BE(0);
            if (len === 0) break;
            const chunk = await self.exact(len);
            hash.update(chunk);
            bytes += len;
            yield chunk;
          }
          finished = true;
        },
      },
      done() {
        if (!finished) throw new Error('part not read to its end');
        return { bytes, sha256: hash.digest('hex') };
      },
    };
  }
}
