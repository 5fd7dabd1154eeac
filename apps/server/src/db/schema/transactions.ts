import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';
import { cryptoAmount, fiatAmount, userWallets } from './wallets';

export const TRANSACTION_TYPES = [
  'deposit',
  'withdrawal',
  'bank_transfer',
  'staking_reward',
  'adjustment',
  'buy',
  'sell',
  'others',
] as const;
export const TRANSACTION_STATUSES = ['pending', 'completed', 'failed'] as const;
/** What a row does to its wallet: credit adds, debit takes amount + fee, none is fiat only. */
export const DIRECTIONS = ['credit', 'debit', 'none'] as const;

/**
 * The ledger. A wallet's balance is the sum of its completed rows' effects and its held
 * amount the sum of its pending debits; `reconcile()` proves it. Rows are never deleted:
 * an admin deletion sets `deleted_at` and reverses the effect.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    walletId: uuid('wallet_id').references(() => userWallets.id),
    transactionType: text('transaction_type', { enum: TRANSACTION_TYPES }).notNull(),
    direction: text('direction', { enum: DIRECTIONS }).notNull(),
    /** Asset id for crypto rows; 'AUD' for a bank transfer request. */
    assetId: text('asset_id').notNull(),
    network: text('network'),
    cryptoAmount: cryptoAmount('crypto_amount').notNull().default('0'),
    fee: cryptoAmount('fee').notNull().default('0'),
    usdAmount: fiatAmount('usd_amount'),
    audAmount: fiatAmount('aud_amount'),
    currency: text('currency'),
    exchangeRate: numeric('exchange_rate', { precision: 20, scale: 10 }),
    withdrawalAddress: text('withdrawal_address'),
    memo: text('memo'),
    transactionHash: text('transaction_hash'),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    /** Why: an admin's required reason, or the rejection reason the customer sees. */
    reason: text('reason'),
    transactionDate: timestamp('transaction_date', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id),
    processedBy: uuid('processed_by').references(() => users.id),
    /** The last admin who edited the row. */
    updatedBy: uuid('updated_by').references(() => users.id),
    /**
     * Every admin who ever edited the row, in order: with `created_by`, what four-eyes
     * checks (the last editor alone would let A edit, B touch it up, and A complete it).
     */
    editorIds: uuid('editor_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /**
     * The row an adjustment corrects: completed deposits, buys and sells are final, so a
     * correction is a new two-person adjustment naming the row it corrects.
     */
    correctsTransactionId: uuid('corrects_transaction_id'),
    /**
     * The asset's USD price a conversion used: for a bank payout, what one unit of the
     * funding asset was worth when it was held (the AUD rate is in `exchange_rate`).
     */
    priceUsd: numeric('price_usd', { precision: 20, scale: 10 }),
    /** The staking cycle a reward pays: one reward per user and cycle, whatever restarts. */
    stakingCycleStart: timestamp('staking_cycle_start', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('transactions_user_date_idx').on(t.userId, t.transactionDate.desc(), t.id.desc()),
    index('transactions_pending_idx').on(t.transactionDate).where(sql`${t.status} = 'pending'`),
    uniqueIndex('transactions_staking_cycle_key')
      .on(t.userId, t.stakingCycleStart)
      .where(sql`${t.transactionType} = 'staking_reward'`),
    // One credit per chain transaction and asset: a deposit can never be credited twice,
    // whether its hash was written with 0x or without, in upper or lower case.
    uniqueIndex('transactions_deposit_chain_hash_key')
      .on(t.assetId, sql`lower(regexp_replace(${t.transactionHash}, '^0[xX]', ''))`)
      .where(
        sql`${t.transactionType} = 'deposit' AND ${t.deletedAt} IS NULL AND ${t.transactionHash} IS NOT NULL`,
      ),
    // The daily withdrawal limit sums a customer's last 24 hours of payouts (crypto and bank).
    index('transactions_user_payouts_idx')
      .on(t.userId, t.transactionDate)
      .where(
        sql`${t.transactionType} IN ('withdrawal', 'bank_transfer') AND ${t.deletedAt} IS NULL`,
      ),
    // The staking board sums a customer's credited rewards on every poll.
    index('transactions_user_rewards_idx')
      .on(t.userId)
      .where(
        sql`${t.transactionType} = 'staking_reward' AND ${t.status} = 'completed' AND ${t.deletedAt} IS NULL`,
      ),
    // The customer's history sorted by amount (either way: read backwards for ascending),
    // paged by keyset on (amount, id) like the date order on transactions_user_date_idx.
    index('transactions_user_amount_idx')
      .on(t.userId, t.cryptoAmount.desc(), t.id.desc())
      .where(sql`${t.deletedAt} IS NULL`),
    // Lets the history count be answered from the index alone.
    index('transactions_user_live_idx').on(t.userId).where(sql`${t.deletedAt} IS NULL`),
    // The admin transactions screen: newest first over every customer, and by type/status.
    index('transactions_admin_date_idx')
      .on(t.transactionDate.desc(), t.id.desc())
      .where(sql`${t.deletedAt} IS NULL`),
    index('transactions_admin_type_idx')
      .on(t.transactionType, t.transactionDate.desc(), t.id.desc())
      .where(sql`${t.deletedAt} IS NULL`),
    index('transactions_admin_currency_idx')
      .on(t.currency, t.transactionDate.desc(), t.id.desc())
      .where(sql`${t.deletedAt} IS NULL`),
    index('transactions_admin_status_idx')
      .on(t.status, t.transactionDate.desc(), t.id.desc())
      .where(sql`${t.deletedAt} IS NULL`),
    // The portfolio chart reads the effects of a few sub-hour windows (the rest comes from
    // wallet_hourly_effects): completed rows by the time they count from, and deletions.
    index('transactions_user_applied_idx')
      .on(t.userId, sql`LEAST(${t.completedAt}, ${t.transactionDate})`)
      .where(
        sql`${t.status} = 'completed' AND ${t.direction} <> 'none' AND ${t.walletId} IS NOT NULL`,
      ),
    index('transactions_user_deleted_idx')
      .on(t.userId, t.deletedAt)
      .where(sql`${t.deletedAt} IS NOT NULL`),
    check('transactions_amount_nonnegative', sql`${t.cryptoAmount} >= 0 AND ${t.fee} >= 0`),
  ],
);

/** A money-moving request's key and first answer: a repeat gets the same answer. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** bank_transfers; the account details are encrypted at rest. */
export const bankTransfers = pgTable('bank_transfers', {
  id: uuid('id').primaryKey().defaultRandom(),
  transactionId: uuid('transaction_id')
    .notNull()
    .unique()
    .references(() => transactions.id),
  accountNameEncrypted: text('account_name_encrypted').notNull(),
  accountNumberEncrypted: text('account_number_encrypted').notNull(),
  bsbNumberEncrypted: text('bsb_number_encrypted').notNull(),
  amountFiat: fiatAmount('amount_fiat').notNull(),
  currency: text('currency').notNull().default('AUD'),
});

/** A customer's saved bank details (product.md M9), encrypted at rest. */
export const userBankDetails = pgTable('user_bank_details', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  fullNameEncrypted: text('full_name_encrypted').notNull(),
  bsbEncrypted: text('bsb_encrypted').notNull(),
  accountNumberEncrypted: text('account_number_encrypted').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * How many live ledger rows each user has, kept by triggers on `transactions` (see the
 * 0001 migration), so the history's "N Transaction(s)" costs one row read, not a count.
 */
export const userTransactionCounts = pgTable('user_transaction_counts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  liveCount: bigint('live_count', { mode: 'number' }).notNull().default(0),
});
