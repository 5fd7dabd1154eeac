import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';

export type Db = NodePgDatabase<typeof schema>;
/** A database handle or an open transaction: repositories take either (STYLE habit 7). */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

// numeric and bigint columns arrive as strings: money must never pass through a float.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

/** How long opening a database connection may take before it counts as an outage. */
export const CONNECT_TIMEOUT_MS = 10_000;

export function createPool(connectionString: string, max = 10): pg.Pool {
  // allowExitOnIdle: an idle pool never keeps a stopping process alive.
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    // A database host that does not answer at all (a network partition, not a refusal) must
    // not hold requests forever: after this they get a 503 like any outage.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    allowExitOnIdle: true,
  });
  // An idle connection dropped by the server (restart, shutdown) must not crash the process;
  // the pool replaces it on next use.
  pool.on('error', () => {});
  // A checked-out connection has no pool listener: dropped between two queries of a request
  // (the database restarted or was killed), its 'error' event would end the process. The
  // request's next query fails instead, and is answered 503 (isDatabaseUnavailable).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** PostgreSQL error classes that mean "the server went away", not "this query was wrong". */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3])/;
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
]);

/**
 * Whether an error means the database cannot be reached right now (stopped, restarting,
 * killed, connection lost): such a request is answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code } = err as { code?: unknown };
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
  }
  if (
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Client was closed/i.test(
      err.message,
    )
  ) {
    return true;
  }
  // AggregateError of every address tried (127.0.0.1 and ::1), and errors wrapped by Drizzle.
  const inner = err as { errors?: unknown[]; cause?: unknown };
  if (Array.isArray(inner.errors) && inner.errors.some(isDatabaseUnavailable)) return true;
  return inner.cause !== undefined && inner.cause !== err && isDatabaseUnavailable(inner.cause);
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
