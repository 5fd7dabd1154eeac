import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appSettings } from '../../db/schema/index';
import { SETTING_DEFAULTS } from './settings.defaults';

export function createSettingsRepository(db: DbOrTx) {
  return {
    /** Inserts the defaults that are missing; never overwrites an operator's value. */
    async ensureDefaults(): Promise<void> {
      await db
        .insert(appSettings)
        .values(
          SETTING_DEFAULTS.map((d) => ({
            settingKey: d.key,
            settingValue: d.value,
            settingType: d.type,
            description: d.description,
          })),
        )
        .onConflictDoNothing({ target: appSettings.settingKey });
    },

    async all(): Promise<Map<string, string>> {
      const rows = await db
        .select({ k: appSettings.settingKey, v: appSettings.settingValue })
        .from(appSettings);
      return new Map(rows.map((r) => [r.k, r.v]));
    },

    async get(key: string): Promise<string | null> {
      const rows = await db
        .select({ v: appSettings.settingValue })
        .from(appSettings)
        .where(sql`${appSettings.settingKey} = ${key}`);
      return rows[0]?.v ?? null;
    },
  };
}
