import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Two people for every action that creates money, moves it or changes where it goes
 * (decision 0036): one staff member proposes, and nothing changes until another approves.
 * `payload` is what the change's kind needs to apply it, checked again at approval;
 * `summary`, `before` and `after` are what the approver is shown. Decided rows stay, so a
 * second approval is told the change was decided and the 30-day rule on payouts can ask
 * who funded a customer.
 */
export const staffChanges = pgTable(
  'staff_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** The customer (or staff member) the change is about, when there is one. */
    subjectUserId: uuid('subject_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** What a newer proposal of the same thing replaces (a setting's key), if anything. */
    targetKey: text('target_key'),
    /** A manual credit or adjustment of the subject: its proposer and approver may not pay them out for 30 days. */
    fundsSubject: boolean('funds_subject').notNull().default(false),
    payload: jsonb('payload').notNull(),
    summary: text('summary').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    /** What the approval produced (say, the ledger row's id). */
    result: jsonb('result'),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'replaced', 'expired'] })
      .notNull()
      .default('pending'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_changes_one_pending_target')
      .on(t.kind, t.targetKey)
      .where(sql`${t.status} = 'pending' AND ${t.targetKey} IS NOT NULL`),
    index('staff_changes_pending_idx').on(t.proposedAt, t.id).where(sql`${t.status} = 'pending'`),
    index('staff_changes_funding_idx')
      .on(t.subjectUserId, t.decidedAt)
      .where(sql`${t.fundsSubject} AND ${t.status} = 'approved'`),
    check(
      'staff_changes_status',
      sql`${t.status} IN ('pending', 'approved', 'rejected', 'replaced', 'expired')`,
    ),
    check('staff_changes_decided', sql`(${t.status} = 'pending') = (${t.decidedAt} IS NULL)`),
  ],
);
