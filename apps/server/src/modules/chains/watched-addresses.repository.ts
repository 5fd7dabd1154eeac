import type { ColumnsOf } from '@server/db/rows';
import type { depositAddresses } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

/** A watched address's owner, found by its match key (which the query makes non-null). */
export type AddressOwner = ColumnsOf<typeof depositAddresses, 'user_id' | 'address'> & {
  match_key: string;
};

/**
 * The deposit addresses as the watchers see them: each keyed once by its chain's match key
 * (`deposit_addresses.match_key`), a block's payees then looked up by key.
 */
export const watchedAddressesRepository = {
  /**
   * Addresses of the assets `symbolNetworks` ("SYMBOL/network") whose match key is not yet
   * worked out: new ones, staff-entered or derived, and changed ones (migration 0011's trigger).
   */
  async unkeyedAddresses(
    db: pg.Pool,
    symbolNetworks: string[],
    limit: number,
  ): Promise<Array<ColumnsOf<typeof depositAddresses, 'id' | 'address'>>> {
    const { rows } = await db.query<ColumnsOf<typeof depositAddresses, 'id' | 'address'>>(
      `SELECT id, address FROM deposit_addresses
        WHERE match_key IS NULL AND (upper(asset_symbol) || '/' || lower(network)) = ANY($1::text[])
        ORDER BY created_at LIMIT $2`,
      [symbolNetworks, limit],
    );
    return rows;
  },

  async setMatchKeys(db: pg.Pool, keys: Array<{ id: string; key: string }>): Promise<void> {
    await db.query(
      `UPDATE deposit_addresses d SET match_key = k.key
         FROM unnest($1::uuid[], $2::text[]) AS k(id, key) WHERE d.id = k.id`,
      [keys.map((k) => k.id), keys.map((k) => k.key)],
    );
  },

  /**
   * The owner of each of `keys` that is a watched (active) address of these assets: the
   * first entered, if staff entered one address twice.
   */
  async ownersOf(
    db: pg.Pool,
    symbolNetworks: string[],
    keys: readonly string[],
  ): Promise<AddressOwner[]> {
    if (keys.length === 0) return [];
    const { rows } = await db.query<AddressOwner>(
      `SELECT DISTINCT ON (match_key) match_key, user_id, address FROM deposit_addresses
        WHERE match_key = ANY($1::text[]) AND is_active
          AND (upper(asset_symbol) || '/' || lower(network)) = ANY($2::text[])
        ORDER BY match_key, created_at, id`,
      [keys, symbolNetworks],
    );
    return rows;
  },

  /** How many distinct addresses a chain's watcher watches (keyed ones; new ones join within a tick). */
  async watchedCount(db: pg.Pool | TxClient, symbolNetworks: string[]): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(DISTINCT match_key)::int AS n FROM deposit_addresses
        WHERE match_key <> '' AND is_active
          AND (upper(asset_symbol) || '/' || lower(network)) = ANY($1::text[])`,
      [symbolNetworks],
    );
    return rows[0]?.n ?? 0;
  },
};
