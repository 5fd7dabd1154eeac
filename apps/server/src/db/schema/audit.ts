import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every admin action, one row each (product.md M7). Append-only: a trigger (see the 0001
 * migration) refuses UPDATE, DELETE and TRUNCATE, and each row is hash-chained to the one
 * before it (`modules/audit`), so a change made around the trigger is still detectable.
 *
 * No foreign keys on the user columns: a row that may never change cannot hold a
 * reference that deleting the user would have to null, and must outlive who it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    /** The chain order. Rolled-back inserts leave gaps; the hash links, not the ids, prove completeness. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The admin who acted; null for the system itself. */
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** The customer the action concerns, when there is one: the admin screen filters by it. */
    targetUserId: uuid('target_user_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The previous row's `hash`; 64 zeros for the first row. */
    prevHash: text('prev_hash').notNull(),
    /** SHA-256 (hex) of this row's content and `prev_hash`. */
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt.desc()),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt.desc()),
    index('audit_log_target_user_idx').on(t.targetUserId, t.createdAt.desc()),
    index('audit_log_action_idx').on(t.action, t.createdAt.desc()),
  ],
);
