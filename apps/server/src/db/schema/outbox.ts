import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The transactional outbox: side effects of a committed change (e-mails, file removals),
 * written in the same database transaction as the change and carried out afterwards by a
 * job with retries. A crash between commit and send loses nothing. The payload is
 * encrypted at rest: mails carry addresses and links.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** What to do: 'mail' or 'delete-files'. */
    kind: text('kind').notNull(),
    payloadEncrypted: text('payload_encrypted').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [index('outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.doneAt} IS NULL`)],
);
