import type { PgListener } from '../../lib/pg-listener';
import type { createSettingsRepository } from './settings.repository';

/** Whoever changes a setting sends this in the same transaction: `SELECT pg_notify(…)`. */
export const SETTINGS_CHANNEL = 'coffer_settings';

/**
 * The settings, read once and kept until any instance announces a change on
 * SETTINGS_CHANNEL, so a change takes effect at once everywhere while hot routes read no
 * row. Without a live listener nothing is cached: every read goes to the database.
 */
export function withSettingsCache(
  repo: ReturnType<typeof createSettingsRepository>,
  listener: PgListener,
) {
  let cache: Map<string, string> | null = null;
  // Bumped by every announcement, so a read that raced with one is not kept.
  let version = 0;
  const forget = () => {
    version++;
    cache = null;
  };
  listener.on(SETTINGS_CHANNEL, forget);
  listener.onDisconnect(forget);

  return {
    ...repo,
    async all(): Promise<Map<string, string>> {
      if (cache && listener.listening) return cache;
      const seen = version;
      const values = await repo.all();
      if (listener.listening && seen === version) cache = values;
      return values;
    },
  };
}
