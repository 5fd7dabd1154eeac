import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';
import { depositAddresses } from './wallets';

/**
 * A customer asking staff for a deposit address, for an asset whose chain Coffer does not
 * watch (no address can be derived there). It is fulfilled when staff add an active address
 * of that asset for the customer, in the same transaction. One open request per customer and
 * asset: a second ask finds the first.
 */
export const depositAddressRequests = pgTable(
  'deposit_address_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The customer wallet's catalogue id: BTC, ETH, USDT-ERC20 or USDT-TRC20. */
    assetId: text('asset_id').notNull(),
    /** The catalogue's network of that asset, as staff enter it on an address. */
    network: text('network').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    fulfilledAt: timestamp('fulfilled_at', { withTimezone: true }),
    /** The admin whose new address fulfilled it. */
    fulfilledBy: uuid('fulfilled_by').references(() => users.id, { onDelete: 'set null' }),
    /** The address that fulfilled it; null while open (and if that address is deleted later). */
    depositAddressId: uuid('deposit_address_id').references(() => depositAddresses.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('deposit_address_requests_open_key')
      .on(t.userId, t.assetId)
      .where(sql`fulfilled_at IS NULL`),
    // Staff list the open ones, oldest first.
    index('deposit_address_requests_open_idx').on(t.requestedAt).where(sql`fulfilled_at IS NULL`),
    check(
      'deposit_address_requests_asset',
      sql`${t.assetId} IN ('BTC', 'ETH', 'USDT-ERC20', 'USDT-TRC20')`,
    ),
    check(
      'deposit_address_requests_open_unassigned',
      sql`${t.fulfilledAt} IS NOT NULL OR (${t.fulfilledBy} IS NULL AND ${t.depositAddressId} IS NULL)`,
    ),
  ],
);
