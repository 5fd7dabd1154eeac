import { bigserial, index, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Every price sync writes one row per feed price (and the AUD/USD rate as 'aud-usd'). */
export const priceSnapshots = pgTable(
  'price_snapshots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    priceId: text('price_id').notNull(),
    priceUsd: numeric('price_usd', { precision: 30, scale: 10 }).notNull(),
    /** The feed's own 24 h change in percent, when it gives one. */
    change24hPct: numeric('change_24h_pct', { precision: 12, scale: 6 }),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('price_snapshots_id_time_idx').on(t.priceId, t.takenAt.desc())],
);
