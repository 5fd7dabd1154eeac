import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { transactions } from './transactions';
import { users } from './users';

/**
 * Chain watching (docs/decisions/0021). Chains are 'bitcoin', 'ethereum', 'tron'.
 */

/** The next derivation index per chain: taken with one UPDATE … RETURNING, never twice. */
export const chainAddressCounters = pgTable('chain_address_counters', {
  chain: text('chain').primaryKey(),
  nextIndex: integer('next_index').notNull().default(0),
});

/**
 * Where a chain's watcher stands: the last block it has fully processed (height and hash),
 * and what it last saw of the node, for the Chains screen and `chain-status`.
 */
export const chainCursors = pgTable('chain_cursors', {
  chain: text('chain').primaryKey(),
  height: bigint('height', { mode: 'number' }).notNull(),
  blockHash: text('block_hash').notNull(),
  nodeTip: bigint('node_tip', { mode: 'number' }),
  lastBlockAt: timestamp('last_block_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each failure of a chain's watcher (node down, slow, behind, a reorg too deep): the Chains
 * screen and `chain-status` count those of the last hour. Kept for a day.
 */
export const chainWatchErrors = pgTable(
  'chain_watch_errors',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    chain: text('chain').notNull(),
    message: text('message').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chain_watch_errors_chain_at_idx').on(t.chain, t.at)],
);

/** The hashes of the recent blocks a watcher processed (at least the last 100), to see a reorg. */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    chain: text('chain').notNull(),
    height: bigint('height', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    parentHash: text('parent_hash').notNull(),
    blockTime: timestamp('block_time', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.chain, t.height] })],
);

/**
 * A deposit seen on a chain: recorded when first seen, credited through the ledger exactly
 * once when its confirmations reach the chain's setting. `outputIndex` is the output (vout)
 * of a Bitcoin transaction, the log index of a token transfer, or -1 for a plain ETH
 * transfer. Status: 'confirming' | 'credited' | 'orphaned' (left the chain before credit) |
 * 'reversed-on-chain' (left the chain after credit: an alert for staff, never a silent debit).
 */
export const chainDeposits = pgTable(
  'chain_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chain: text('chain').notNull(),
    txHash: text('tx_hash').notNull(),
    outputIndex: integer('output_index').notNull(),
    address: text('address').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    assetId: text('asset_id').notNull(),
    /** In the asset's smallest unit (satoshi, wei, 10^-6 USDT). */
    amountMinor: numeric('amount_minor', { precision: 78, scale: 0 }).notNull(),
    blockHeight: bigint('block_height', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /**
     * The count the deposit was credited at. While it confirms, its count is read from the
     * cursor (chain-deposits.repository's CONFIRMATIONS_SQL), so a block does not rewrite every
     * confirming row.
     */
    confirmations: integer('confirmations').notNull().default(0),
    status: text('status').notNull().default('confirming'),
    /** The ledger row of the credit, once credited. */
    transactionId: uuid('transaction_id').references(() => transactions.id),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chain_deposits_once_key').on(t.chain, t.txHash, t.outputIndex),
    index('chain_deposits_user_idx').on(t.userId, t.firstSeenAt),
    index('chain_deposits_open_idx').on(t.chain, t.blockHeight).where(sql`status = 'confirming'`),
  ],
);
