import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

export const userTwoFactor = pgTable('user_two_factor', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Encrypted TOTP secret in use; null while 2FA is off. */
  secretEncrypted: text('secret_encrypted'),
  /** Encrypted secret of a setup not yet confirmed with a code. */
  pendingSecretEncrypted: text('pending_secret_encrypted'),
  /** Keyed hashes of the backup codes shown with the pending setup. */
  pendingBackupCodeHashes: jsonb('pending_backup_code_hashes').$type<string[]>(),
  /** The last 30-second step whose code was accepted: a code is accepted once. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const backupCodes = pgTable(
  'backup_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('backup_codes_user_id_idx').on(t.userId)],
);
