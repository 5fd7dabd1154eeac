import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';
import { cryptoAmount } from './wallets';

/**
 * ETH staking state per user (DEVIATIONS M1). Accrual is checkpointed into
 * `accrued_pending` at every ETH balance change and at each credit, so a deposit an hour
 * before a cycle ends earns one hour. Credits are `staking_reward` transactions.
 */
export const userStaking = pgTable('user_staking', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  assetId: text('asset_id').notNull().default('ETH'),
  isStaking: boolean('is_staking').notNull().default(true),
  /** Accrued since the last credit and not yet credited. */
  accruedPending: cryptoAmount('accrued_pending').notNull().default('0'),
  lastCheckpointAt: timestamp('last_checkpoint_at', { withTimezone: true }).notNull(),
  /** Start of the current 24-hour cycle; it ends with a credit. */
  cycleStartAt: timestamp('cycle_start_at', { withTimezone: true }).notNull(),
  creditedTotal: cryptoAmount('credited_total').notNull().default('0'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
