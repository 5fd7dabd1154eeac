import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; the unique index makes two spellings of one address impossible. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/** user_profiles. The 2FA "verified" flag lives in the session. */
export const userProfiles = pgTable(
  'user_profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name'),
    username: text('username'),
    status: text('status').notNull().default('active'),
    registrationDate: timestamp('registration_date', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    twoFactorRequired: boolean('two_factor_required').notNull().default(true),
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /**
     * A security hold (product.md S10): set when the recovery phrase is used or staff take
     * the second factor away. Payouts, bank details and 2FA changes wait until this time,
     * and, while the phrase that was used is burnt, until a new one exists.
     */
    securityHoldUntil: timestamp('security_hold_until', { withTimezone: true }),
    /** Set by the customer's "This wasn't me" link: nothing moves until staff review it. */
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    /**
     * Set when two admins lift a freeze: the password may be known to whoever caused it, so
     * nobody signs in until the owner sets a new one with the link mailed to them.
     */
    newPasswordRequiredAt: timestamp('new_password_required_at', { withTimezone: true }),
    /**
     * When the customer closed the dashboard's first-run checklist: it stays closed on every
     * device, unlike a flag the browser would keep.
     */
    firstRunDismissedAt: timestamp('first_run_dismissed_at', { withTimezone: true }),
  },
  // Newest first, as the admin users screen lists customers.
  (t) => [index('user_profiles_created_at_idx').on(t.createdAt.desc(), t.id.desc())],
);

/**
 * Existence of a row makes the user staff; nothing else does. `roles` says what they may do
 * (docs/roles.md), read by every request's session look-up, so a change of role takes
 * effect on the next request. A row has at least one role and only known ones.
 */
export const adminUsers = pgTable(
  'admin_users',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{owner,approver,treasurer,compliance,support,auditor}'::text[]`),
  },
  (t) => [
    check(
      'admin_users_roles',
      sql`cardinality(${t.roles}) > 0 AND ${t.roles} <@ '{owner,approver,treasurer,compliance,support,auditor}'::text[]`,
    ),
  ],
);

export const emailVerificationTokens = pgTable('email_verification_tokens', {
  /** SHA-256 of the token in the link; the token itself is never stored. */
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** The one-click "This wasn't me" links of security-hold mails; the token itself is never stored. */
export const accountFreezeTokens = pgTable('account_freeze_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * Lifting a freeze takes two admins (decision "frozen means frozen"): one asks, with a
 * reason, another approves or rejects. One request at most waits per account.
 */
export const unfreezeRequests = pgTable(
  'unfreeze_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'approved' or 'rejected'; null while it waits. */
    decision: text('decision'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionReason: text('decision_reason'),
  },
  (t) => [uniqueIndex('unfreeze_requests_pending_key').on(t.userId).where(sql`decided_at IS NULL`)],
);

/** The links that let an unfrozen customer set a new password; the token itself is never stored. */
export const setPasswordTokens = pgTable('set_password_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});
