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
  /**
   * The session that started the pending setup: only it is shown the pending secret again
   * (a reload) and only it may confirm it. Not a foreign key: a session's id is never reused,
   * and a setup left by an ended session is simply replaced by the next one.
   */
  pendingSessionId: uuid('pending_session_id'),
  /** The pending setup's backup codes, encrypted (a JSON list): shown again until confirmed. */
  pendingBackupCodesEncrypted: text('pending_backup_codes_encrypted'),
  /**
   * The recovery phrase this setup stores when it is confirmed, encrypted; null for staff and
   * for an account that has a phrase already.
   */
  pendingPhraseEncrypted: text('pending_phrase_encrypted'),
  /** The positions (1 to 12) of the phrase's words typed back before the setup is confirmed. */
  pendingPhraseCheck: jsonb('pending_phrase_check').$type<number[]>(),
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
