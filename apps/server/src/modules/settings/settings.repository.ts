import type { TSettingType } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { appSettings } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';
import { SETTING_DEFAULTS } from './settings.defaults';

/** Whoever changes a setting sends this in the same transaction: `SELECT pg_notify(…)`. */
export const SETTINGS_CHANNEL = 'coffer_settings';

type ValueRow = ColumnsOf<typeof appSettings, 'setting_key' | 'setting_value'>;

/** Adds the rows of `defaults` that are missing; the keys it added. */
async function insertDefaults(
  db: pg.Pool | TxClient,
  defaults: Array<{ key: string; value: string; type: TSettingType; description: string }>,
): Promise<string[]> {
  const { rows } = await db.query<ColumnsOf<typeof appSettings, 'setting_key'>>(
    `INSERT INTO app_settings (setting_key, setting_value, setting_type, description)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
     ON CONFLICT (setting_key) DO NOTHING RETURNING setting_key`,
    [
      defaults.map((d) => d.key),
      defaults.map((d) => d.value),
      defaults.map((d) => d.type),
      defaults.map((d) => d.description),
    ],
  );
  return rows.map((r) => r.setting_key);
}

/** The values as the app reads them; the cache (settings.cache.ts) keeps them per instance. */
export const settingsRepository = {
  /** Inserts the defaults that are missing; never overwrites an operator's value. */
  async ensureDefaults(db: pg.Pool | TxClient): Promise<void> {
    await insertDefaults(db, SETTING_DEFAULTS);
  },

  async all(db: pg.Pool | TxClient): Promise<Map<string, string>> {
    const { rows } = await db.query<ValueRow>(
      'SELECT setting_key, setting_value FROM app_settings',
    );
    return new Map(rows.map((r) => [r.setting_key, r.setting_value]));
  },

  async get(db: pg.Pool | TxClient, key: string): Promise<string | null> {
    const { rows } = await db.query<ValueRow>(
      'SELECT setting_key, setting_value FROM app_settings WHERE setting_key = $1',
      [key],
    );
    return rows[0]?.setting_value ?? null;
  },
};

export type SettingRow = {
  key: string;
  value: string;
  type: TSettingType;
  description: string;
  updatedAt: Date;
};

type Raw = ColumnsOf<
  typeof appSettings,
  'setting_key' | 'setting_value' | 'setting_type' | 'description' | 'updated_at'
>;

const present = (r: Raw): SettingRow => ({
  key: r.setting_key,
  value: r.setting_value,
  type: r.setting_type,
  description: r.description,
  updatedAt: r.updated_at,
});

const COLUMNS = 'setting_key, setting_value, setting_type, description, updated_at';

/**
 * Reading and writing settings rows as the operator sees them. Every write goes through
 * `applyChanges`, which announces the change in the same transaction: each instance's
 * cache (settings.cache.ts) then drops its copy when the transaction commits, not before.
 */
export const settingsWrites = {
  async list(db: pg.Pool | TxClient): Promise<SettingRow[]> {
    const { rows } = await db.query<Raw>(
      `SELECT ${COLUMNS} FROM app_settings ORDER BY setting_key`,
    );
    return rows.map(present);
  },

  /** The rows of `keys`, locked until the transaction ends, so two saves apply in turn. */
  async lock(client: TxClient, keys: string[]): Promise<SettingRow[]> {
    const { rows } = await client.query<Raw>(
      `SELECT ${COLUMNS} FROM app_settings WHERE setting_key = ANY($1::text[])
        ORDER BY setting_key FOR UPDATE`,
      [keys],
    );
    return rows.map(present);
  },

  /**
   * Writes the new values; `updated_at` is the transaction's time. Only rows whose value
   * really changes are written: the staking rate's `updated_at` is the moment from which a
   * new rate applies, so an unchanged rate must keep its own.
   */
  async applyChanges(client: TxClient, changes: Array<{ key: string; value: string }>) {
    if (changes.length === 0) return;
    await client.query(
      `UPDATE app_settings s SET setting_value = c.value, updated_at = now()
         FROM unnest($1::text[], $2::text[]) AS c(key, value)
        WHERE s.setting_key = c.key AND s.setting_value IS DISTINCT FROM c.value`,
      [changes.map((c) => c.key), changes.map((c) => c.value)],
    );
    await client.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, '']);
  },

  /** Adds rows for defaults that are missing (a key added after the database was made). */
  async insertMissing(
    client: TxClient,
    defaults: Array<{ key: string; value: string; type: TSettingType; description: string }>,
  ): Promise<string[]> {
    const added = await insertDefaults(client, defaults);
    if (added.length > 0) await client.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, '']);
    return added;
  },
};
