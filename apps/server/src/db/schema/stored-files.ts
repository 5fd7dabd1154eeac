import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Private files (identity documents, chat attachments) in the database, so every instance
 * reads what any instance stored and a backup holds them with the rows that name them. The
 * content is encrypted with the app's key (base64 inside the ciphertext).
 */
export const storedFiles = pgTable('stored_files', {
  key: text('key').primaryKey(),
  contentEncrypted: text('content_encrypted').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
});
