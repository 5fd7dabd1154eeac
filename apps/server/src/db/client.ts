import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';

export type Db = NodePgDatabase<typeof schema>;
/** A database handle or an open transaction: repositories take either (STYLE habit 7). */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

// numeric and bigint columns arrive as strings: money must never pass through a float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export function createPool(connectionString: string, max = 10): pg.Pool {
  // allowExitOnIdle: an idle pool never keeps a stopping process alive.
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
  });
  // An idle connection dropped by the server (restart, shutdown) must not crash the process;
  // the pool replaces it on next use.
  pool.on('error', () => {});
  return pool;
}

export function createDb(pool: pg.Pool): Db {
  return drizzle(pool, { schema });
}

/**
 * Drizzle on one connection, e.g. the client of `withTransaction`: its queries join that
 * transaction, so Drizzle repositories and raw-SQL ones (the outbox) commit together.
 * Never call `.transaction()` on it: that would commit the caller's transaction early.
 */
export function createDbOn(client: pg.PoolClient): Db {
  return drizzle(client, { schema });
}
