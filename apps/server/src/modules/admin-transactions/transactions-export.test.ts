import { randomBytes } from 'node:crypto';
import { DAY_RANGE_BACKWARDS, toMinor } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { expectReconciled } from '@server-test/money-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The transactions list's UTC day range, and its CSV export following the filters. */

let t: TestApp;
let admin: SignedInUser;
let customer: SignedInUser;
let many: SignedInUser;
/** The customer's deposits by when they were made. */
const ids: Record<string, string> = {};

/** A completed BTC deposit at this instant, through the ledger. */
async function depositAt(userId: string, iso: string, amount = '0.01') {
  const row = await withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      userId,
      assetId: 'BTC',
      type: 'deposit',
      direction: 'credit',
      amount: toMinor('BTC', amount),
      status: 'completed',
      transactionHash: randomBytes(32).toString('hex'),
      createdBy: null,
      transactionDate: new Date(iso),
    }),
  );
  return row.id;
}

function get(url: string, user: SignedInUser = admin) {
  return call(t, { url, cookie: user.cookie });
}

/** The CSV's lines without the header, each split at its commas (no cell here has one). */
function csvRows(body: string): string[][] {
  const lines = body.split('\r\n').filter((l) => l !== '');
  return lines.slice(1).map((l) => l.split(','));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await verifiedAdmin(t);
  const tag = randomBytes(3).toString('hex');
  customer = await verifiedCustomer(t, `range.${tag}@example.com`);
  many = await verifiedCustomer(t, `many.${tag}@example.com`);
  for (const iso of [
    '2025-03-01T23:59:59.999Z',
    '2025-03-02T00:00:00.000Z',
    '2025-03-02T23:59:59.999Z',
    '2025-03-03T00:00:00.000Z',
  ]) {
    ids[iso] = await depositAt(customer.userId, iso);
  }
  // A name a spreadsheet would run as a formula.
  await t.services.pool.query('UPDATE user_profiles SET full_name = $2 WHERE id = $1', [
    customer.userId,
    '=HYPERLINK("http://evil.example")',
  ]);
});

afterAll(async () => {
  await expectReconciled(t);
  await t.close();
});

describe('the transactions list by day', () => {
  it('takes whole UTC days: from the first instant of "from" to the last of "to"', async () => {
    const res = await get(
      `/api/admin/transactions?q=${customer.email}&from=2025-03-02&to=2025-03-02`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { id: string }) => i.id)).toEqual([
      ids['2025-03-02T23:59:59.999Z'],
      ids['2025-03-02T00:00:00.000Z'],
    ]);
    const from = await get(`/api/admin/transactions?q=${customer.email}&from=2025-03-02`);
    expect(from.json().items).toHaveLength(3);
    // The first and last days there are: the whole ledger.
    const all = await get(
      `/api/admin/transactions?q=${customer.email}&from=0001-01-01&to=9999-12-31`,
    );
    expect([all.statusCode, all.json().items.length]).toEqual([200, 4]);
    const to = await get(`/api/admin/transactions?q=${customer.email}&to=2025-03-01`);
    expect(to.json().items.map((i: { id: string }) => i.id)).toEqual([
      ids['2025-03-01T23:59:59.999Z'],
    ]);
  });

  it('refuses a range that runs backwards or a day that does not exist, changing nothing', async () => {
    const cases: Array<[string, string]> = [
      ['from=2025-03-03&to=2025-03-02', DAY_RANGE_BACKWARDS],
      ['from=2025-02-30', 'That date does not exist.'],
      ['to=03/02/2025', 'Dates are written YYYY-MM-DD.'],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/admin/transactions', '/api/admin/transactions/export.csv']) {
        const res = await withoutChange(t, () => get(`${path}?${query}`));
        expect([res.statusCode, errorOf(res)], `${path}?${query}`).toEqual([
          400,
          { error: 'VALIDATION_FAILED', message },
        ]);
      }
    }
  });
});

describe('GET /api/admin/transactions/export.csv', () => {
  it('exports what the filters show, newest first, with formula cells defused', async () => {
    const res = await get(
      `/api/admin/transactions/export.csv?q=${customer.email}&from=2025-03-02&to=2025-03-03&type=deposit`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="coffer-transactions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header] = res.body.split('\r\n');
    expect(header).toBe(
      'Date (UTC),Id,Customer e-mail,Customer name,Type,Direction,Asset,Amount,USD,AUD,Currency,Status',
    );
    const rows = csvRows(res.body);
    expect(rows.map((r) => [r[0], r[1], r[2], r[4], r[6], r[7], r[11]])).toEqual(
      ['2025-03-03T00:00:00.000Z', '2025-03-02T23:59:59.999Z', '2025-03-02T00:00:00.000Z'].map(
        (iso) => [iso, ids[iso], customer.email, 'deposit', 'BTC', '0.01', 'completed'],
      ),
    );
    // The name starts with '=': quoted and prefixed, as the history export does.
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
  });

  it('streams a long export in batches, every row once even when they share an instant', async () => {
    const at = new Date('2025-04-01T12:00:00.000Z');
    await withTransaction(t.services.pool, async (client) => {
      for (let i = 0; i < 1_234; i += 1) {
        await t.services.ledger.post(client, {
          userId: many.userId,
          assetId: 'BTC',
          type: 'deposit',
          direction: 'credit',
          amount: 1n,
          status: 'completed',
          transactionHash: randomBytes(32).toString('hex'),
          createdBy: null,
          transactionDate: at,
        });
      }
    });
    const res = await get(`/api/admin/transactions/export.csv?q=${many.email}`);
    expect(res.statusCode).toBe(200);
    const rows = csvRows(res.body);
    expect(rows).toHaveLength(1_234);
    expect(new Set(rows.map((r) => r[1])).size).toBe(1_234);
    const { rows: stored } = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM transactions WHERE user_id = $1 ORDER BY id DESC',
      [many.userId],
    );
    expect(rows.map((r) => r[1])).toEqual(stored.map((s) => s.id));
  });

  it('is for staff only', async () => {
    const res = await get('/api/admin/transactions/export.csv', customer);
    expect(res.statusCode).toBe(403);
  });
});
