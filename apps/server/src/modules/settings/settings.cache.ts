import type { PgListener } from '@server/lib/pg-listener';
import type pg from 'pg';
import { settingsRepository as repo, SETTINGS_CHANNEL } from './settings.repository';

/**
 * The settings, read once and kept until any instance announces a change on
 * SETTINGS_CHANNEL, so a change takes effect at once everywhere while hot routes read no
 * row. Without a live listener nothing is cached: every read goes to the database.
 */
export function withSettingsCache(pool: pg.Pool, listener: PgListener) {
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
    /** Inserts the defaults that are missing; never overwrites an operator's value. */
    ensureDefaults: (): Promise<void> => repo.ensureDefaults(pool),
    get: (key: string): Promise<string | null> => repo.get(pool, key),
    /**
     * Drops this instance's cache at once. The announcement does it too, but it arrives
     * over a connection of its own a moment later: the instance that made a change calls
     * this after its commit, so its own next request never reads the value before it.
     */
    invalidate: forget,
    /**
     * Every setting. Code inside a transaction passes its client: a miss is then read on
     * that connection, never on a second one from the pool (parallel requests waiting on
     * a row lock could otherwise hold every connection while the lock's holder waits for
     * one), and not kept, as the transaction may see its own uncommitted change.
     */
    async all(client?: pg.PoolClient): Promise<Map<string, string>> {
      if (cache && listener.listening) return cache;
      if (client) return repo.all(client);
      const seen = version;
      const values = await repo.all(pool);
      if (listener.listening && seen === version) cache = values;
      return values;
    },
  };
}
