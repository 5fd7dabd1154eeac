import type { FileStore } from '@server/lib/file-store';
import type pg from 'pg';
import type { Logger } from 'pino';
import { outboxRepository as repo } from './outbox.repository';

/**
 * The folders of private files and what names them: `kyc_submissions.front_document_key` /
 * `back_document_key` (kyc-documents/) and `chat_messages.file_key` (chat-images/,
 * chat-files/). A new kind of stored file must be added here and to the reference query,
 * or its files are never swept (and never wrongly removed either).
 */
export const SWEPT_PREFIXES = ['kyc-documents', 'chat-images', 'chat-files'] as const;

/** Uploads write the file first and the row after: a younger file may still get its row. */
export const ORPHAN_MIN_AGE_MS = 3600_000;

const BATCH = 5000;

/**
 * Removes stored files that no row names, once they are an hour old: what is left when the
 * server dies between writing an upload and committing its row, or in the middle of a
 * write (its temporary file).
 */
export function createFileSweep(deps: { pool: pg.Pool; files: FileStore; log: Logger }) {
  return {
    /** One sweep; the keys it removed. */
    async run(now: Date = new Date()): Promise<string[]> {
      const cutoff = now.getTime() - ORPHAN_MIN_AGE_MS;
      const removed: string[] = [];
      for (const prefix of SWEPT_PREFIXES) {
        const old = (await deps.files.list(prefix))
          .filter((f) => f.modifiedAt.getTime() < cutoff)
          .map((f) => f.key);
        for (let i = 0; i < old.length; i += BATCH) {
          const batch = old.slice(i, i + BATCH);
          const referenced = await repo.referencedFileKeys(deps.pool, batch);
          for (const key of batch) {
            if (referenced.has(key)) continue;
            await deps.files.delete(key);
            removed.push(key);
          }
        }
      }
      if (removed.length > 0) {
        deps.log.info({ removed: removed.length }, 'unreferenced stored files removed');
      }
      return removed;
    },
  };
}

export type FileSweep = ReturnType<typeof createFileSweep>;
