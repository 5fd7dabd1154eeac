import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One phrase per user for life (product.md S1): encrypted, plus a keyed hash for look-up. */
export const userSeedPhrases = pgTable('user_seed_phrases', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  seedPhraseEncrypted: text('seed_phrase_encrypted').notNull(),
  phraseHash: text('phrase_hash').notNull().unique(),
  isGenerated: boolean('is_generated').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * When the customer proved they wrote the phrase down; null while they have not. A phrase
   * made to replace a burnt one must be confirmed before a security hold can end.
   */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
});
