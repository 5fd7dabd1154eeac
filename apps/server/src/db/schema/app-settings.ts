import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** app_settings: values are strings, typed by setting_type. */
export const appSettings = pgTable('app_settings', {
  id: uuid('id').primaryKey().defaultRandom(),
  settingKey: text('setting_key').notNull().unique(),
  settingValue: text('setting_value').notNull(),
  settingType: text('setting_type', { enum: ['boolean', 'number', 'json', 'text'] }).notNull(),
  description: text('description').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
