import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
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
import { users } from './users';

/** Crypto amounts: up to 20 whole digits and 18 decimals (ETH's wei), exact. */
export const cryptoAmount = <N extends string>(name: N) =>
  numeric(name, { precision: 38, scale: 18 });
/** Fiat amounts in dollars and cents. */
export const fiatAmount = <N extends string>(name: N) => numeric(name, { precision: 20, scale: 2 });

/**
 * One wallet per user and asset. `balance_crypto` is the sum of completed ledger effects,
 * `held` the sum of pending withdrawals; only the ledger service writes either, and the
 * database refuses a state where less than nothing is available.
 */
export const userWallets = pgTable(
  'user_wallets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Asset id of the catalogue: BTC, ETH, USDT-ERC20, USDT-TRC20, USDC. */
    assetId: text('asset_id').notNull(),
    network: text('network').notNull(),
    balanceCrypto: cryptoAmount('balance_crypto').notNull().default('0'),
    held: cryptoAmount('held').notNull().default('0'),
    /** USD value at the last price sync, shown when no live price is known. */
    balanceFiat: fiatAmount('balance_fiat').notNull().default('0'),
    walletAddress: text('wallet_address'),
    nickname: text('nickname'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_wallets_user_asset_key').on(t.userId, t.assetId),
    check('user_wallets_balance_nonnegative', sql`${t.balanceCrypto} >= 0`),
    check('user_wallets_held_nonnegative', sql`${t.held} >= 0`),
    check('user_wallets_available_nonnegative', sql`${t.balanceCrypto} >= ${t.held}`),
  ],
);

/**
 * What a wallet's completed ledger effects add up to in each UTC hour, dated as the
 * portfolio chart dates them: an effect counts from its row's date (or its completion, if
 * earlier), and a deleted row's effect is taken back in the hour it was deleted. Kept by
 * triggers on `transactions` (migration 0018) in the same transaction as every row change,
 * so the chart reads at most one row per wallet and hour of its range, however long the
 * customer's history. Summed over all hours it is the wallet's balance (the ledger check
 * compares).
 */
export const walletHourlyEffects = pgTable(
  'wallet_hourly_effects',
  {
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => userWallets.id, { onDelete: 'cascade' }),
    /** The UTC hour the effects fall in (its start). */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    /** Signed: credits minus debits (amount + fee) in the hour. */
    delta: numeric('delta', { precision: 38, scale: 18 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.walletId, t.hour] })],
);

/** deposit_addresses: symbol + network, as staff enter them. */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assetSymbol: text('asset_symbol').notNull(),
    network: text('network').notNull(),
    /** An address belongs to one customer only. */
    address: text('address').notNull().unique(),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * For an address Coffer derived from the operator's public key: the chain
     * ('bitcoin' | 'ethereum' | 'tron') and the index `…/0/i` it was derived at. Null for
     * addresses staff entered. One derived address per customer per chain; an index is
     * never handed out twice (migration 0009's unique indexes).
     */
    chain: text('chain'),
    derivationIndex: integer('derivation_index'),
    /**
     * The chain watcher's key for this address (ChainAdapter.matchKeyOf: the output script on
     * Bitcoin, the lower-case address on Ethereum, the hex form on TRON), filled in by the
     * watcher; '' when the address is not one of its chain's. A block's payees are looked up
     * by it, so the watcher never holds every watched address in memory (migration 0011).
     */
    matchKey: text('match_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('deposit_addresses_user_idx').on(t.userId, t.isActive),
    uniqueIndex('deposit_addresses_chain_index_key')
      .on(t.chain, t.derivationIndex)
      .where(sql`derivation_index IS NOT NULL`),
    uniqueIndex('deposit_addresses_user_chain_key')
      .on(t.userId, t.chain)
      .where(sql`derivation_index IS NOT NULL`),
    index('deposit_addresses_match_key_idx').on(t.matchKey).where(sql`match_key <> ''`),
    index('deposit_addresses_unkeyed_idx').on(t.createdAt).where(sql`match_key IS NULL`),
  ],
);
