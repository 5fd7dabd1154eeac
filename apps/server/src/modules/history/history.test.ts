import { randomBytes } from 'node:crypto';
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
import {
  expectReconciled,
  fund,
  GOOD_ADDRESS,
  requestBankTransfer,
  requestWithdrawal,
  setSetting,
} from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from './csv';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await setSetting(t, 'max_daily_withdrawal', '1000000000');
});
afterAll(async () => {
  await t.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

/** A completed BTC deposit dated `at`, through the ledger. */
function depositAt(userId: string, at: Date, amount = 1000n) {
  return withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      userId,
      assetId: 'BTC',
      type: 'deposit',
      direction: 'credit',
      amount,
      status: 'completed',
      createdBy: null,
      transactionDate: at,
    }),
  );
}

type Page = {
  items: Array<{ id: string; date: string }>;
  nextCursor: string | null;
  total: number;
};

async function allPages(
  user: SignedInUser,
  limit: number,
): Promise<{ ids: string[]; pages: Page[] }> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/transactions?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await call(t, { url, cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    const page: Page = res.json();
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 100);
  return { ids: pages.flatMap((p) => p.items.map((i) => i.id)), pages };
}

describe('GET /api/transactions', () => {
  it('pages newest first by keyset, without duplicates or gaps across equal timestamps', async () => {
    const user = await verifiedCustomer(t);
    const other = await verifiedCustomer(t);
    // 23 rows share one microsecond-exact timestamp; others lie before and after it.
    const same = new Date('2025-09-01T12:00:00.000Z');
    for (let i = 0; i < 23; i++) await depositAt(user.userId, same);
    for (let i = 0; i < 6; i++)
      await depositAt(user.userId, new Date(same.getTime() + (i + 1) * 60_000));
    for (let i = 0; i < 6; i++)
      await depositAt(user.userId, new Date(same.getTime() - (i + 1) * 60_000));
    for (let i = 0; i < 5; i++) await depositAt(other.userId, same);

    const { ids, pages } = await allPages(user, 7);
    expect(pages.every((p) => p.total === 35)).toBe(true);
    expect(ids).toHaveLength(35);
    expect(new Set(ids).size).toBe(35);
    expect(pages.at(-1)?.nextCursor).toBeNull();

    const { rows } = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM transactions WHERE user_id = $1 ORDER BY transaction_date DESC, id DESC',
      [user.userId],
    );
    expect(ids).toEqual(rows.map((r) => r.id));
    // A cursor at the very last row (a page past the end) still tells the whole count.
    const lastId = rows.at(-1)?.id;
    const keyed = await t.services.pool.query<{ date_us: string }>(
      'SELECT (extract(epoch FROM transaction_date) * 1000000)::bigint::text AS date_us FROM transactions WHERE id = $1',
      [lastId],
    );
    const pastEnd = Buffer.from(`${keyed.rows[0]?.date_us}:${lastId}`).toString('base64url');
    const beyond = await call(t, {
      url: `/api/transactions?cursor=${pastEnd}`,
      cookie: user.cookie,
    });
    expect(beyond.json()).toEqual({ items: [], nextCursor: null, prevCursor: null, total: 35 });
    const theirs = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM transactions WHERE user_id = $1',
      [other.userId],
    );
    for (const r of theirs.rows) expect(ids).not.toContain(r.id);
    await expectReconciled(t);
  });

  it('keeps microsecond order: rows a few microseconds apart page correctly', async () => {
    const user = await verifiedCustomer(t);
    for (let i = 0; i < 5; i++) await depositAt(user.userId, new Date('2025-09-02T00:00:00Z'));
    // Spread them by microseconds, which a JavaScript Date cannot hold.
    await t.services.pool.query(
      `UPDATE transactions SET transaction_date = transaction_date + (random() * 900)::int * interval '1 microsecond'
        WHERE user_id = $1`,
      [user.userId],
    );
    const { ids } = await allPages(user, 2);
    const { rows } = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM transactions WHERE user_id = $1 ORDER BY transaction_date DESC, id DESC',
      [user.userId],
    );
    expect(ids).toEqual(rows.map((r) => r.id));
  });

  it('shows each row as the contract says and leaves deleted rows out', async () => {
    const user = await verifiedCustomer(t);
    await fund(t, user.userId, 'BTC', '1');
    const w = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.1',
      address: GOOD_ADDRESS.BTC,
    });
    const b = await requestBankTransfer(t, user, {
      accountName: 'Ann',
      accountNumber: '12345678',
      bsbNumber: '062000',
      amountAud: '10',
      assetId: 'BTC',
    });
    const res = await call(t, { url: '/api/transactions', cookie: user.cookie });
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.items.map((i: { id: string }) => i.id)).toEqual([
      b.json().transaction.id,
      w.json().transaction.id,
      expect.any(String),
    ]);
    expect(body.items[2]).toMatchObject({
      type: 'deposit',
      direction: 'credit',
      amount: '1',
      fee: '0',
      status: 'completed',
    });
    // A deleted row is left out. The payouts hold funds, so the row deleted here is one
    // without a balance effect, and the wallets still reconcile.
    const { rows } = await t.services.pool.query<{ id: string }>(
      `INSERT INTO transactions (user_id, transaction_type, direction, asset_id, status, reason)
       VALUES ($1, 'others', 'none', 'AUD', 'completed', 'note') RETURNING id`,
      [user.userId],
    );
    const note = rows[0]?.id;
    expect((await call(t, { url: '/api/transactions', cookie: user.cookie })).json().total).toBe(4);
    await t.services.pool.query('UPDATE transactions SET deleted_at = now() WHERE id = $1', [note]);
    const after = (await call(t, { url: '/api/transactions', cookie: user.cookie })).json();
    expect(after.total).toBe(3);
    expect(after.items.map((i: { id: string }) => i.id)).not.toContain(note);
  });

  it('refuses a cursor it did not make, and a limit out of range', async () => {
    const user = await verifiedCustomer(t);
    for (const cursor of [
      'nonsense',
      Buffer.from('1:2').toString('base64url'),
      Buffer.from("1:x' OR 1=1").toString('base64url'),
      // Digits past bigint: PostgreSQL would refuse them with an error, not a page.
      Buffer.from('9999999999999999999:00000000-0000-0000-0000-000000000000').toString('base64url'),
    ]) {
      const res = await withoutChange(t, () =>
        call(t, { url: `/api/transactions?cursor=${cursor}`, cookie: user.cookie }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'VALIDATION_FAILED',
        message: 'This page link is no longer valid. Reload the history.',
      });
    }
    for (const limit of ['0', '101', 'x']) {
      const res = await call(t, { url: `/api/transactions?limit=${limit}`, cookie: user.cookie });
      expect(res.statusCode).toBe(400);
    }
  });

  it('never shows a customer another customer’s rows', async () => {
    const a = await verifiedCustomer(t);
    const b = await verifiedCustomer(t);
    await fund(t, a.userId, 'ETH', '1');
    const res = await call(t, { url: '/api/transactions', cookie: b.cookie });
    expect(res.json()).toEqual({ items: [], nextCursor: null, prevCursor: null, total: 0 });
    const csv = await call(t, { url: '/api/transactions/export.csv', cookie: b.cookie });
    expect(csv.body.trim().split('\r\n')).toHaveLength(1);
  });
});

describe('GET /api/transactions/export.csv', () => {
  it('sends the whole history as an attachment, one line per row, formulas neutralized', async () => {
    const user = await verifiedCustomer(t);
    const admin = await verifiedAdmin(t);
    await t.services.deposits.credit({
      email: user.email,
      assetId: 'BTC',
      amount: 100_000_000n,
      transactionHash: randomBytes(32).toString('hex'),
    });
    // The app stores chain hashes in their network's form only; a cell that a spreadsheet
    // would run can still reach the table another way (an import, a hand edit).
    await t.services.pool.query(
      `UPDATE transactions SET transaction_hash = '@SUM(A1:A9)'
        WHERE user_id = $1 AND transaction_type = 'deposit'`,
      [user.userId],
    );
    const w = await requestWithdrawal(t, user, {
      assetId: 'BTC',
      amount: '0.5',
      address: GOOD_ADDRESS.BTC,
    });
    await t.services.withdrawals.reject(w.json().transaction.id, {
      reason: '=HYPERLINK("http://evil.example","click"), sorry',
      processedBy: admin.userId,
    });
    await requestBankTransfer(t, user, {
      accountName: 'Ann',
      accountNumber: '12345678',
      bsbNumber: '062000',
      amountAud: '100',
      assetId: 'BTC',
    });

    const res = await call(t, { url: '/api/transactions/export.csv', cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="coffer-history.csv"');
    const lines = res.body.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      'Date,Type,Asset,Amount,Fee,USD,AUD,USD per AUD,Asset price (USD),Status,Transaction hash,Address,Reason',
    );
    expect(lines).toHaveLength(5);
    const [bank, withdrawal, deposit] = lines.slice(1);
    // A bank payout holds the asset it is funded from (decision 0010).
    expect(bank).toMatch(
      /^[^,]+,bank_transfer,BTC,0\.00156886,0,66\.00,100\.00,0\.66,42069,pending,,,$/,
    );
    expect(withdrawal).toMatch(
      new RegExp(
        `^[^,]+,withdrawal,BTC,0\\.5,0\\.0001,21034\\.50,,,,failed,,${GOOD_ADDRESS.BTC},"'=HYPERLINK\\(""http://evil\\.example"",""click""\\), sorry"$`,
      ),
    );
    expect(deposit).toMatch(/^[^,]+,deposit,BTC,1,0,42069\.00,,,,completed,'@SUM\(A1:A9\),,$/);
    await expectReconciled(t);
  });

  it('streams a history longer than one batch completely and in order', async () => {
    const user = await verifiedCustomer(t);
    await t.services.pool.query(
      `INSERT INTO transactions (user_id, transaction_type, direction, asset_id, status, transaction_date, reason)
       SELECT $1, 'others', 'none', 'AUD', 'completed', '2025-01-01'::timestamptz + i * interval '1 second', 'row ' || i
         FROM generate_series(1, 2345) AS i`,
      [user.userId],
    );
    const res = await call(t, { url: '/api/transactions/export.csv', cookie: user.cookie });
    const lines = res.body.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(2345);
    expect(lines[0]).toMatch(/,row 2345$/);
    expect(lines.at(-1)).toMatch(/,row 1$/);
    expect(new Set(lines).size).toBe(2345);
  });
});

describe('csvCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@A1', "'@A1"],
    ['\tx', "'\tx"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['plain', 'plain'],
  ])('writes %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
