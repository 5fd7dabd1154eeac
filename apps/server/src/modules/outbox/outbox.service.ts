import { type TxClient, withTransaction } from '@server/db/tx';
import type { Secrets } from '@server/lib/crypto';
import { assertValidKey, type FileStore } from '@server/lib/file-store';
import type { Mail, Mailer } from '@server/lib/mailer';
import { crashNow, faultArmed } from '@server/lib/test-fault';
import type pg from 'pg';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type OutboxRow, outboxRepository as repo } from './outbox.repository';

export type FilesToDelete = { keys?: string[]; prefixes?: string[] };

export type Outbox = {
  /** Queues a mail in the caller's open database transaction. */
  mail(client: TxClient, mail: Mail): Promise<void>;
  /** Queues many mails in one statement (a block's credited deposits). */
  mailMany(client: TxClient, mails: Mail[]): Promise<void>;
  /** Queues removal of stored private files (keys and/or key prefixes) in the caller's transaction. */
  deleteFiles(client: TxClient, files: FilesToDelete): Promise<void>;
  /**
   * Carries out everything due now; called right after a commit, and by a job. Never throws
   * (logs). With a remote mail server, a request's call returns after `REQUEST_WAIT_MS` at
   * most while delivery goes on (a server that hangs must not hang the customer's request);
   * the job passes `{ wait: 'all' }`.
   */
  deliver(opts?: { wait?: 'all' }): Promise<void>;
  /** Removes rows delivered more than `days` ago; the number removed. */
  prune(days?: number): Promise<number>;
};

/** After this many failed attempts a row is given up (about nine hours of retries). */
export const MAX_ATTEMPTS = 15;
const FIRST_RETRY_SECONDS = 30;
const MAX_RETRY_SECONDS = 3600;
/** One deliver() carries out at most this many rows; the job picks up the rest. */
const MAX_ROWS_PER_RUN = 100;
/** How long a deliverer waits for a row another one is carrying out before it leaves it. */
const WAIT_FOR_OTHERS_SECONDS = 30;
const KEEP_DONE_DAYS = 7;
/** How long a request waits for its mail to reach a remote mail server before answering. */
export const REQUEST_WAIT_MS = 2_000;

/** Seconds before the next attempt after `attempts` failures: 30 s, doubling, at most 1 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_SECONDS);
}

const ZMail = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
});
const ZFiles = z.object({ keys: z.array(z.string()), prefixes: z.array(z.string()) });

/**
 * What is kept of a failure: its code and the start of its message, without addresses or
 * links (an SMTP refusal quotes the recipient; a link carries a one-time token).
 */
export function shortError(err: unknown): string {
  const code =
    typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
      ? `${err.code}: `
      : '';
  const message = err instanceof Error ? err.message : String(err);
  const cleaned = message
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<link>')
    .replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '<address>')
    .replace(/\s+/g, ' ')
    .trim();
  return `${code}${cleaned}`.slice(0, 200);
}

function isLockTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '55P03';
}

/**
 * The transactional outbox (docs/decisions/0011): side effects of a committed change, queued
 * in the change's own transaction and carried out after the commit, again until they succeed.
 */
export function createOutbox(deps: {
  pool: pg.Pool;
  secrets: Secrets;
  mailer: Mailer;
  files: FileStore;
  log: Logger;
}): Outbox {
  const { pool, log } = deps;

  async function carryOut(row: OutboxRow): Promise<void> {
    const payload: unknown = JSON.parse(deps.secrets.decrypt(row.payload_encrypted));
    if (row.kind === 'mail') {
      await deps.mailer.send(ZMail.parse(payload), { id: row.id, createdAt: row.created_at });
    } else if (row.kind === 'delete-files') {
      const files = ZFiles.parse(payload);
      for (const key of files.keys) await deps.files.delete(key);
      for (const prefix of files.prefixes) await deps.files.deletePrefix(prefix);
    } else {
      throw new Error(`unknown outbox kind "${row.kind}"`);
    }
  }

  /**
   * Claims one due row and carries it out, holding the row's lock until its outcome is
   * committed, so no other deliverer (of this instance or another) has it at the same time.
   * Without `skipLocked` it waits for a row another deliverer holds: a caller that delivers
   * right after its commit then returns only once its mail has gone, by whichever hand.
   * False when there was nothing to claim.
   */
  async function deliverOne(skipLocked: boolean): Promise<boolean> {
    try {
      return await withTransaction(pool, async (client) => {
        if (!skipLocked) await repo.limitLockWait(client, WAIT_FOR_OTHERS_SECONDS);
        const row = await repo.claimDue(client, skipLocked);
        if (row) {
          try {
            await carryOut(row);
            await repo.markDone(client, row.id);
          } catch (err) {
            const attempts = row.attempts + 1;
            const reason = shortError(err);
            const facts = { outboxId: row.id, kind: row.kind, attempts, error: reason };
            if (attempts >= MAX_ATTEMPTS) {
              await repo.giveUp(client, row.id, attempts, reason);
              log.error(facts, 'outbox: gave up after the last attempt');
            } else {
              const delay = retryDelaySeconds(attempts);
              await repo.retryLater(client, row.id, attempts, delay, reason);
              log.warn({ ...facts, retryInSeconds: delay }, 'outbox: attempt failed, will retry');
            }
          }
        }
        return row !== null;
      });
    } catch (err) {
      if (isLockTimeout(err)) return false;
      throw err;
    }
  }

  async function deliverDue(): Promise<void> {
    try {
      // Most calls find nothing to do: one cheap query, no transaction.
      if (!(await repo.hasDue(pool))) return;
      if (faultArmed('kill-after-commit')) crashNow();
      for (let done = 0; done < MAX_ROWS_PER_RUN; done++) {
        if (await deliverOne(true)) continue;
        if (!(await deliverOne(false))) break;
      }
    } catch (err) {
      log.error({ err }, 'outbox: delivery stopped');
    }
  }

  async function queueMails(client: TxClient, mails: Mail[]) {
    if (mails.length === 0) return;
    await repo.insertMany(
      client,
      'mail',
      mails.map(({ to, subject, text }) =>
        deps.secrets.encrypt(JSON.stringify({ to, subject, text })),
      ),
    );
  }

  async function queue(client: TxClient, kind: 'mail' | 'delete-files', payload: unknown) {
    await repo.insert(client, kind, deps.secrets.encrypt(JSON.stringify(payload)));
  }

  return {
    mail: (client, mail) => queueMails(client, [mail]),
    mailMany: queueMails,

    async deleteFiles(client, files) {
      const keys = files.keys ?? [];
      const prefixes = files.prefixes ?? [];
      // A bad key fails the caller's transaction now, rather than its delivery forever.
      for (const key of [...keys, ...prefixes]) assertValidKey(key.replace(/\/+$/, ''));
      if (keys.length === 0 && prefixes.length === 0) return;
      await queue(client, 'delete-files', { keys, prefixes });
    },

    async deliver(opts) {
      const work = deliverDue();
      if (opts?.wait === 'all' || !deps.mailer.remote) return work;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, REQUEST_WAIT_MS);
      });
      await Promise.race([work, waited]);
      clearTimeout(timer);
    },

    async prune(days = KEEP_DONE_DAYS) {
      return repo.deleteDoneBefore(pool, days);
    },
  };
}
