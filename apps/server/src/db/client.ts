import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { StartupError } from '../lib/startup-error';
import * as schema from './schema/index';

/** Drizzle on the schema: the migrations run through it; modules send raw SQL through `pg`. */
export type Db = NodePgDatabase<typeof schema>;

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

/**
 * How long a start or a CLI command waits for a database that refuses connections or is
 * still starting up: long enough for PostgreSQL started at the same moment (a boot, a
 * compose file) to come up, short enough that an operator is not left guessing.
 */
export const DATABASE_WAIT_MS = 10_000;

/** Where a connection string points, for a message: host and port only, never a password. */
export function databaseAddress(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    // A Unix socket is named by a `host` parameter (postgres:///coffer?host=/run/postgresql).
    const host = url.searchParams.get('host') || url.hostname || 'localhost';
    return `${host}:${url.searchParams.get('port') || url.port || '5432'}`;
  } catch {
    return 'the configured address';
  }
}

/** The cause of a failed connection in a few words (its first address's, when several). */
function reasonOf(err: unknown): string {
  const inner = (err as { errors?: unknown[] }).errors;
  const first = Array.isArray(inner) && inner.length > 0 ? inner[0] : err;
  const code = (first as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'no such host';
  if (code === '57P03') return 'the database system is starting up';
  if (first instanceof Error && /timeout/i.test(first.message)) return 'no answer';
  return first instanceof Error ? first.message : String(first);
}

/**
 * Resolves once the database accepts a connection. A database that is down or still
 * starting (isDatabaseUnavailable) is tried again until `waitMs` has passed; then, or at
 * once for a refusal only the operator can fix (a wrong password, no such database), a
 * StartupError says so in one line.
 */
export async function waitForDatabase(
  databaseUrl: string,
  waitMs = DATABASE_WAIT_MS,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  const where = databaseAddress(databaseUrl);
  for (let delayMs = 250; ; delayMs = Math.min(delayMs * 2, 2_000)) {
    const client = new pg.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => {});
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && /^(28|3D)/.test(code)) {
        throw new StartupError(`the database at ${where} refuses Coffer: ${reasonOf(err)}`);
      }
      if (!isDatabaseUnavailable(err)) throw err;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new StartupError(
          `its database at ${where} cannot be reached (${reasonOf(err)}, tried for ${waitMs / 1000} s); is PostgreSQL running?`,
        );
      }
      // The last try falls on the deadline itself: the whole wait is given.
      await new Promise((resolve) => setTimeout(resolve, Math.min(delayMs, left)));
    }
  }
}

export function createDb(pool: pg.Pool): Db {
  return drizzle(pool, { schema });
}

/**
 * Drizzle on one connection: the migrator runs on the connection that holds the migration
 * lock (migrate.ts). Never call `.transaction()` on one inside an open transaction: that
 * would commit the caller's transaction early.
 */
export function createDbOn(client: pg.PoolClient): Db {
  return drizzle(client, { schema });
}
