import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** app_settings: values are strings, typed by setting_type. */
export const appSettings = pgTable('app_settings', {
  id: uuid('id').primaryKey().defaultRandom(),
  settingKey: text('setting_key').notNull().unique(),
  settingValue: text('setting_value').notNull(),
  settingType: text('setting_type', { enum: ['boolean', 'number', 'json', 'text'] }).notNull(),
  description: text('description').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Four eyes on risk settings (decision 0024): a change one admin proposed, applied only
 * when another approves it. Decided rows stay (status and who decided), so a second
 * approval of the same change is told it was already decided; at most one change per
 * setting is pending, a newer proposal replacing the older.
 */
export const appSettingChanges = pgTable(
  'app_setting_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    settingKey: text('setting_key')
      .notNull()
      .references(() => appSettings.settingKey, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    proposedBy: uuid('proposed_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    proposedAt: timestamp('proposed_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'replaced'] })
      .notNull()
      .default('pending'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('app_setting_changes_one_pending_key')
      .on(t.settingKey)
      .where(sql`${t.status} = 'pending'`),
    index('app_setting_changes_proposed_idx').on(t.proposedAt),
  ],
);
