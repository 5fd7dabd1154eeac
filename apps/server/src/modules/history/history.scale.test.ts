import { mulPrice, parseAmount } from '@coffer/shared';
import {
  call,
  createTestApp,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
} from '@server-test/helpers';
import { expectReconciled } from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * A customer with 100,000 ledger rows (and a neighbour with 50,000): the history, the export
 * and the portfolio chart must stay index-driven and aggregated in PostgreSQL.
 */
let t: TestApp;
let user: SignedInUser;
const ROWS = 100_000;

async function seed(userId: string, rows: number): Promise<void> {
  await t.services.pool.query(
    `INSERT INTO user_wallets (user_id, asset_id, network) VALUES ($1, 'BTC', 'bitcoin')
     ON CONFLICT (user_id, asset_id) DO NOTHING`,
    [userId],
  );
  // Deposits of 0.00001 BTC spread over the last 60 days, each completed when dated.
  await t.services.pool.query(
    `INSERT INTO transactions (user_id, wallet_id, transaction_type, direction, asset_id, network,
       crypto_amount, status, transaction_date, completed_at, usd_amount)
     SELECT $1, w.id, 'deposit', 'credit', 'BTC', 'bitcoin', 0.00001, 'completed', d, d, 0.42
       FROM user_wallets w,
            LATERAL (SELECT now() - (i * interval '60 days') / $2 AS d FROM generate_series(1, $2) AS i) g
      WHERE w.user_id = $1 AND w.asset_id = 'BTC'`,
    [userId, rows],
  );
  await t.services.pool.query(
    `UPDATE user_wallets SET balance_crypto = (SELECT SUM(crypto_amount) FROM transactions WHERE wallet_id = user_wallets.id)
      WHERE user_id = $1 AND asset_id = 'BTC'`,
    [userId],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  user = await verifiedCustomer(t);
  const neighbour = await verifiedCustomer(t);
  await seed(user.userId, ROWS);
  await seed(neighbour.userId, ROWS / 2);
  await t.services.pool.query('VACUUM ANALYZE transactions');
  await t.services.pool.query('VACUUM ANALYZE user_wallets');
}, 120_000);
afterAll(async () => {
  await t.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

async function timed<T>(what: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await what();
  return { result, ms: performance.now() - started };
}

describe('a customer with 100,000 transactions', () => {
  it('pages the history from the index: the first page and the 2,000th cost the same', async () => {
    await call(t, { url: '/api/transactions', cookie: user.cookie }); // warm-up
    const first = await timed(() =>
      call(t, { url: '/api/transactions?limit=50', cookie: user.cookie }),
    );
    expect(first.result.json().total).toBe(ROWS);

    // Walk to a deep page through the cursors, then time it.
    let cursor: string = first.result.json().nextCursor;
    for (let i = 0; i < 3; i++) {
      cursor = (
        await call(t, { url: `/api/transactions?limit=100&cursor=${cursor}`, cookie: user.cookie })
      ).json().nextCursor;
    }
    const { rows } = await t.services.pool.query<{ date_us: string; id: string }>(
      `SELECT (extract(epoch FROM transaction_date) * 1000000)::bigint::text AS date_us, id FROM transactions
        WHERE user_id = $1 ORDER BY transaction_date DESC, id DESC OFFSET 99950 LIMIT 1`,
      [user.userId],
    );
    const deepRow = rows[0];
    if (!deepRow) throw new Error('no deep row');
    const deepCursor = Buffer.from(`${deepRow.date_us}:${deepRow.id}`).toString('base64url');
    const deep = await timed(() =>
      call(t, { url: `/api/transactions?limit=50&cursor=${deepCursor}`, cookie: user.cookie }),
    );
    expect(deep.result.json().items).toHaveLength(49);
    expect(deep.result.json().nextCursor).toBeNull();
    console.info(`history page: first ${first.ms.toFixed(1)} ms, deep ${deep.ms.toFixed(1)} ms`);

    // The plan of a page in the middle: an ordered index scan that starts at the cursor.
    const middle = await t.services.pool.query<{ date_us: string; id: string }>(
      `SELECT (extract(epoch FROM transaction_date) * 1000000)::bigint::text AS date_us, id FROM transactions
        WHERE user_id = $1 ORDER BY transaction_date DESC, id DESC OFFSET 50000 LIMIT 1`,
      [user.userId],
    );
    const plan = await t.services.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT * FROM transactions WHERE user_id = $1 AND deleted_at IS NULL
         AND (transaction_date, id) < ('epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3::uuid)
       ORDER BY transaction_date DESC NULLS LAST, id DESC NULLS LAST LIMIT 51`,
      [user.userId, middle.rows[0]?.date_us, middle.rows[0]?.id],
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    // Here one customer owns nearly every row, so the all-customers date index of the admin
    // screen (same order, filtered by customer) costs the planner the same as the
    // customer's own: either is an ordered scan from the cursor.
    expect(text).toMatch(/Index Scan using transactions_(user|admin)_date_idx/);
    expect(text).toMatch(/Index Cond: .*ROW\(transaction_date, id\) </);
    expect(text).not.toMatch(/\bSort\b/);
  });

  it('pages the history by amount from its own index, largest or smallest first', async () => {
    const first = await call(t, {
      url: '/api/transactions?limit=50&sort=amount&order=desc',
      cookie: user.cookie,
    });
    expect(first.json().items).toHaveLength(50);
    expect(first.json().total).toBe(ROWS);
    // Every amount here is equal: the id orders them, and a deep page starts at its cursor.
    const { rows } = await t.services.pool.query<{ amount: string; id: string }>(
      `SELECT crypto_amount::text AS amount, id FROM transactions
        WHERE user_id = $1 ORDER BY crypto_amount DESC, id DESC OFFSET 99950 LIMIT 1`,
      [user.userId],
    );
    const deepRow = rows[0];
    if (!deepRow) throw new Error('no deep row');
    const cursor = Buffer.from(`a${deepRow.amount}:${deepRow.id}`).toString('base64url');
    const deep = await call(t, {
      url: `/api/transactions?limit=50&sort=amount&order=desc&cursor=${cursor}`,
      cookie: user.cookie,
    });
    expect(deep.json().items).toHaveLength(49);
    expect(deep.json().nextCursor).toBeNull();
    expect(deep.json().prevCursor).not.toBeNull();

    for (const [cmp, way, scan] of [
      ['<', 'DESC NULLS LAST', /Index Scan using transactions_user_amount_idx/],
      ['>', 'ASC NULLS FIRST', /Index Scan Backward using transactions_user_amount_idx/],
    ] as const) {
      const plan = await t.services.pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT * FROM transactions WHERE user_id = $1 AND deleted_at IS NULL
           AND (crypto_amount, id) ${cmp} ($2::numeric, $3::uuid)
         ORDER BY crypto_amount ${way}, id ${way} LIMIT 51`,
        [user.userId, deepRow.amount, deepRow.id],
      );
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(scan);
      expect(text).toMatch(/Index Cond: .*ROW\(crypto_amount, id\) [<>]/);
      expect(text).not.toMatch(/\bSort\b/);
    }
  });

  it('narrows 100,000 rows on the server: a filter, a search that finds nothing, a count', async () => {
    // Every row is a completed BTC deposit of 0.00001: a filter that keeps them all, one
    // that keeps none, and a search for an amount and for a hash nobody has.
    for (const [query, total] of [
      ['type=deposit&asset=BTC', ROWS],
      ['status=pending', 0],
      ['q=0.00001&sort=amount', ROWS],
      ['q=no-such-hash', 0],
    ] as const) {
      const res = await timed(() =>
        call(t, { url: `/api/transactions?limit=50&${query}`, cookie: user.cookie }),
      );
      expect(res.result.statusCode).toBe(200);
      expect(res.result.json().total, query).toBe(total);
      expect(res.result.json().items).toHaveLength(Math.min(total, 50));
      console.info(`history page ${query}: ${res.ms.toFixed(1)} ms`);
    }
  }, 60_000);

  it('exports all of it as CSV in batches', async () => {
    const res = await timed(() =>
      call(t, { url: '/api/transactions/export.csv', cookie: user.cookie }),
    );
    const lines = res.result.body.trim().split('\r\n');
    console.info(
      `CSV export of ${ROWS} rows: ${res.ms.toFixed(0)} ms, ${(res.result.body.length / 1e6).toFixed(1)} MB`,
    );
    expect(lines).toHaveLength(ROWS + 1);
  }, 60_000);

  it('draws the 30-day portfolio chart from per-interval sums', async () => {
    const res = await timed(() =>
      call(t, { url: '/api/portfolio/history?range=30d', cookie: user.cookie }),
    );
    const { points } = res.result.json();
    console.info(`portfolio history 30d: ${res.ms.toFixed(1)} ms`);
    expect(points).toHaveLength(49);
    // 1 BTC now (100,000 × 0.00001); at each point, what had arrived by then, at the
    // catalogue price of 42,069 USD as no snapshot exists.
    expect(points.at(-1).usd).toBe('42069.00');
    for (const k of [0, 24]) {
      const { rows } = await t.services.pool.query<{ btc: string }>(
        'SELECT SUM(crypto_amount)::text AS btc FROM transactions WHERE user_id = $1 AND transaction_date <= $2',
        [user.userId, points[k].t],
      );
      expect(points[k].usd).toBe(mulPrice(parseAmount(rows[0]?.btc ?? '0', 8), 8, '42069'));
    }
    await expectReconciled(t);
  });
});
