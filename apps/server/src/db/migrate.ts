import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { JOB_LOCK_NAMESPACE, MIGRATION_LOCK_KEY } from '../lib/job-lock';
import { createDbOn, type Db } from './client';

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * Applies the committed SQL migrations under a session advisory lock, so instances started
 * together on one database take turns: the first migrates, the others then find nothing
 * left to do. Drizzle takes no lock of its own, and two instances creating the same schema
 * at once fail on PostgreSQL's unique catalogue indexes.
 */
export async function runMigrations(db: Db, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  // `createDb` builds every Db on a pool, which drizzle keeps as `$client`; its static type
  // does not name it.
  const pool = (db as Db & { $client?: pg.Pool }).$client;
  if (!pool?.connect) throw new Error('runMigrations needs a Db made on a pool (createDb)');
  // The lock and the migrations on one connection: a session lock belongs to its connection.
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [JOB_LOCK_NAMESPACE, MIGRATION_LOCK_KEY]);
    try {
      await migrate(createDbOn(client), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [
        JOB_LOCK_NAMESPACE,
        MIGRATION_LOCK_KEY,
      ]);
    }
  } catch (err) {
    // Destroying the connection frees a lock the unlock could not.
    broken = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    client.release(broken);
  }
}
