import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from './client';
import { MIGRATIONS_DIR, runMigrations } from './migrate';

/**
 * Upgrading a database that already holds money: the migrations run on a database that
 * was at an earlier release, with the rows that release could write.
 */
const serverUrl = inject('pgServerUrl');
const dbName = `m_${randomBytes(6).toString('hex')}`;
let pool: pg.Pool;

/** The migrations folder as it was at release `count` (its first `count` migrations). */
function releaseFolder(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-migrations-'));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8'));
  journal.entries = journal.entries.slice(0, count);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  pool = new pg.Pool({ connectionString: `${serverUrl}/${dbName}` });
});
afterAll(async () => {
  await pool.end();
  const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('migration 0003 on a database from the release before it', () => {
  it('starts even where one chain transaction was credited twice, and marks the second', async () => {
    const before = releaseFolder(3);
    await migrate(createDb(pool), { migrationsFolder: before });
    fs.rmSync(before, { recursive: true, force: true });

    const hex = randomBytes(32).toString('hex');
    const { rows: users } = await pool.query<{ id: string }>(
      "INSERT INTO users (email, password_hash) VALUES ('old@example.com', 'x') RETURNING id",
    );
    const userId = users[0]?.id;
    const { rows: wallets } = await pool.query<{ id: string }>(
      "INSERT INTO user_wallets (user_id, asset_id, network, balance_crypto) VALUES ($1, 'ETH', 'ethereum', 2) RETURNING id",
      [userId],
    );
    // What the release before could write: the same deposit once with 0x, once without.
    const { rows: credits } = await pool.query<{ id: string }>(
      `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network,
         crypto_amount, status, transaction_hash, transaction_date)
       VALUES ($1, $2, 'deposit', 'credit', 'ETH', 'ethereum', 1, 'completed', $3, now() - interval '2 days'),
              ($1, $2, 'deposit', 'credit', 'ETH', 'ethereum', 1, 'completed', $4, now() - interval '1 day')
       RETURNING id`,
      [userId, wallets[0]?.id, `0x${hex}`, hex.toUpperCase()],
    );

    await runMigrations(createDb(pool));

    const { rows } = await pool.query<{ id: string; transaction_hash: string }>(
      'SELECT id, transaction_hash FROM transactions ORDER BY transaction_date',
    );
    expect(rows).toEqual([
      { id: credits[0]?.id, transaction_hash: `0x${hex}` },
      {
        id: credits[1]?.id,
        transaction_hash: `${hex.toUpperCase()} (duplicate of ${credits[0]?.id})`,
      },
    ]);
    // The money is as it was: the operator corrects it, the migration does not.
    const { rows: balance } = await pool.query(
      'SELECT balance_crypto::int AS b FROM user_wallets WHERE id = $1',
      [wallets[0]?.id],
    );
    expect(balance).toEqual([{ b: 2 }]);
    // From now on the same chain transaction, however written, is refused.
    await expect(
      pool.query(
        `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network,
           crypto_amount, status, transaction_hash)
         VALUES ($1, $2, 'deposit', 'credit', 'ETH', 'ethereum', 1, 'completed', $3)`,
        [userId, wallets[0]?.id, hex],
      ),
    ).rejects.toThrow(/transactions_deposit_chain_hash_key/);
  });
});

describe('instances starting together on an empty database', () => {
  it('all come up: one migrates, the others wait for it and find nothing left to do', async () => {
    const name = `m_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: `${serverUrl}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    // Three instances, each with its own pool, as three processes would have.
    const pools = [1, 2, 3].map(() => new pg.Pool({ connectionString: `${serverUrl}/${name}` }));
    try {
      const results = await Promise.allSettled(pools.map((p) => runMigrations(createDb(p))));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

      // Each migration recorded once, and the schema is the whole one.
      const journal = JSON.parse(
        fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
      );
      const [first] = pools;
      if (!first) throw new Error('no pool');
      const applied = await first.query('SELECT hash FROM drizzle.__drizzle_migrations');
      expect(applied.rowCount).toBe(journal.entries.length);
      const tables = await first.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('users', 'transactions', 'user_wallets', 'outbox')",
      );
      expect(tables.rows).toEqual([{ n: 4 }]);
      // The lock is released: nothing is left waiting on it.
      const locks = await first.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      );
      expect(locks.rows).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      // A pool's end returns before its sessions are gone; a forced drop would end them
      // with an error no one listens to.
      await expect
        .poll(async () => {
          const { rows } = await admin.query(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          );
          return rows[0]?.n;
        })
        .toBe(0);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
