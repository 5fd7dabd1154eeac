import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { HEAVY_EMAIL, seedLoad } from './seed-load';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('seed-load', () => {
  it('loads customers and ledger rows that reconcile, with the heavy customer holding their share', async () => {
    await seedLoad(t.services.pool, { customers: 20, transactions: 400, heavy: 150 });
    const users = await t.services.pool.query('SELECT count(*)::int AS n FROM users');
    expect(users.rows[0].n).toBe(20);
    // Every customer has a name of their own, as the admin search would meet them.
    const names = await t.services.pool.query<{ n: number; blank: number }>(
      `SELECT count(DISTINCT full_name)::int AS n,
              count(*) FILTER (WHERE full_name IS NULL OR username IS NULL)::int AS blank
         FROM user_profiles`,
    );
    expect(names.rows[0]).toEqual({ n: 20, blank: 0 });
    const wallets = await t.services.pool.query('SELECT count(*)::int AS n FROM user_wallets');
    expect(wallets.rows[0].n).toBe(80);
    const rows = await t.services.pool.query('SELECT count(*)::int AS n FROM transactions');
    expect(rows.rows[0].n).toBe(400);
    const heavy = await t.services.pool.query(
      'SELECT count(*)::int AS n FROM transactions t JOIN users u ON u.id = t.user_id WHERE u.email = $1',
      [HEAVY_EMAIL],
    );
    expect(heavy.rows[0].n).toBe(150);
    expect(await t.services.ledger.reconcile(t.services.pool)).toEqual([]);
    expect(await seedLoad(t.services.pool, { customers: 20, transactions: 400, heavy: 150 })).toBe(
      'The load data is already there.',
    );
  });
});
