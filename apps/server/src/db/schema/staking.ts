import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';
import { cryptoAmount } from './wallets';

/**
 * ETH staking state per user (product.md M1). Accrual is checkpointed into
 * `accrued_pending` at every ETH balance change and at each credit, so a deposit an hour
 * before a cycle ends earns one hour. Credits are `staking_reward` transactions: what was
 * credited is read from the ledger, never kept here, so it cannot drift from it.
 * Whether a user is staking is not stored either: it is "holds ETH and the program has
 * started", read from the wallet.
 */
export const userStaking = pgTable(
  'user_staking',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    assetId: text('asset_id').notNull().default('ETH'),
    /** Accrued up to `last_checkpoint_at` and not yet credited, in ETH (exact to the wei). */
    accruedPending: cryptoAmount('accrued_pending').notNull().default('0'),
    lastCheckpointAt: timestamp('last_checkpoint_at', { withTimezone: true }).notNull(),
    /**
     * The daily rate accruing since `last_checkpoint_at`. A change of the setting applies
     * from the next checkpoint on, so accrual already shown never changes afterwards.
     */
    dailyRate: numeric('daily_rate', { precision: 20, scale: 18 }).notNull(),
    /** Start of the current 24-hour cycle; it ends with a credit. */
    cycleStartAt: timestamp('cycle_start_at', { withTimezone: true }).notNull(),
    /** When the ETH balance last rose from 0; meaningful only while it is above 0. */
    stakingSince: timestamp('staking_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The credit job looks for cycles that have ended.
    index('user_staking_cycle_start_idx').on(t.cycleStartAt),
    check('user_staking_pending_nonnegative', sql`${t.accruedPending} >= 0`),
    check('user_staking_rate_nonnegative', sql`${t.dailyRate} >= 0`),
  ],
);
