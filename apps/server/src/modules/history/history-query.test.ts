import { randomBytes } from 'node:crypto';
import { type TAssetId, toMinor } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  type TestApp,
  verifiedCustomer,
  withoutChange,
} from '@server-test/helpers';
import { expectReconciled, GOOD_ADDRESS } from '@server-test/money-helpers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PostInput } from '../ledger';

/**
 * The customer's history narrowed, searched and sorted on the server, paged by keyset in
 * every order, both ways, and the CSV export following the same parameters.
 */
let t: TestApp;
let user: SignedInUser;
let other: SignedInUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await verifiedCustomer(t);
  other = await verifiedCustomer(t);
  await seed();
}, 120_000);
afterAll(async () => {
  await t.close();
});
// Whatever a test did or refused, every wallet still equals the sum of its ledger rows.
afterEach(async () => {
  await expectReconciled(t);
});

const DAY = new Date('2025-06-01T12:00:00.000Z').getTime();
const hex = () => randomBytes(32).toString('hex');

/** One ledger row through the ledger, as the app would write it. */
function post(
  userId: string,
  input: Omit<PostInput, 'userId' | 'amount' | 'createdBy' | 'assetId'> & {
    assetId: TAssetId;
    amount: string;
    createdBy?: string | null;
  },
) {
  return withTransaction(t.services.pool, (client) =>
    t.services.ledger.post(client, {
      ...input,
      userId,
      amount: toMinor(input.assetId, input.amount),
      fee: input.fee ?? 0n,
      createdBy: input.createdBy ?? null,
    }),
  );
}

/**
 * The customer's rows: deposits in BTC and ETH (some sharing a date, many sharing an
 * amount), pending and rejected withdrawals to addresses, a staking reward, adjustments;
 * the neighbour has look-alike rows that must never show.
 */
async function seed(): Promise<void> {
  const at = (minutes: number) => new Date(DAY + minutes * 60_000);
  for (const who of [user, other]) {
    await post(who.userId, {
      assetId: 'ETH',
      type: 'deposit',
      direction: 'credit',
      amount: '100',
      status: 'completed',
      transactionHash: hex(),
      transactionDate: at(-1000),
    });
    // Twelve BTC deposits of 1.5 at one minute, and twelve more at the next: equal
    // amounts and equal dates across page boundaries.
    for (let i = 0; i < 24; i++) {
      await post(who.userId, {
        assetId: 'BTC',
        type: 'deposit',
        direction: 'credit',
        amount: '1.5',
        status: 'completed',
        transactionHash: hex(),
        transactionDate: at(i < 12 ? 1 : 2),
      });
    }
    for (const [i, amount] of ['0.5', '0.05', '5', '0.55', '0.50000001'].entries()) {
      await post(who.userId, {
        assetId: 'BTC',
        type: 'deposit',
        direction: 'credit',
        amount,
        status: i === 1 ? 'pending' : 'completed',
        transactionHash: hex(),
        transactionDate: at(10 + i),
      });
    }
    for (const [i, status] of (['pending', 'pending', 'failed'] as const).entries()) {
      await post(who.userId, {
        assetId: 'ETH',
        type: 'withdrawal',
        direction: 'debit',
        amount: String(i + 1),
        fee: toMinor('ETH', '0.001'),
        status,
        withdrawalAddress: GOOD_ADDRESS.ETH,
        createdBy: who.userId,
        transactionDate: at(20 + i),
      });
    }
    await post(who.userId, {
      assetId: 'ETH',
      type: 'staking_reward',
      direction: 'credit',
      amount: '0.5',
      status: 'completed',
      transactionDate: at(30),
    });
    await post(who.userId, {
      assetId: 'BTC',
      type: 'adjustment',
      direction: 'credit',
      amount: '0.5',
      status: 'completed',
      reason: 'Correction',
      transactionDate: at(31),
    });
  }
}

type Page = {
  items: Array<{ id: string; type: string; amount: string }>;
  nextCursor: string | null;
  prevCursor: string | null;
  total: number;
};

async function page(query: string, who: SignedInUser = user): Promise<Page> {
  const res = await call(t, { url: `/api/transactions?${query}`, cookie: who.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page from the first, following nextCursor; each page's ids in order. */
async function forward(query: string): Promise<{ pages: Page[]; ids: string[] }> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const p: Page = await page(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
    pages.push(p);
    cursor = p.nextCursor;
  } while (cursor && pages.length < 100);
  return { pages, ids: pages.flatMap((p) => p.items.map((i) => i.id)) };
}

/** The customer's live rows where `condition` holds, in `order`: what a page must list. */
async function truth(condition: string, order: string, values: unknown[] = []): Promise<string[]> {
  const { rows } = await t.services.pool.query<{ id: string }>(
    `SELECT id FROM transactions WHERE user_id = $1 AND deleted_at IS NULL AND ${condition}
      ORDER BY ${order}`,
    [user.userId, ...values],
  );
  return rows.map((r) => r.id);
}

const NEWEST = 'transaction_date DESC, id DESC';

describe('GET /api/transactions: filters', () => {
  it.each([
    ['type=deposit', "transaction_type = 'deposit'"],
    ['type=withdrawal', "transaction_type = 'withdrawal'"],
    ['type=staking_reward', "transaction_type = 'staking_reward'"],
    ['type=adjustment', "transaction_type = 'adjustment'"],
    ['type=bank_transfer', "transaction_type = 'bank_transfer'"],
    ['asset=BTC', "asset_id = 'BTC'"],
    ['asset=ETH', "asset_id = 'ETH'"],
    ['status=pending', "status = 'pending'"],
    ['status=completed', "status = 'completed'"],
    ['status=failed', "status = 'failed'"],
    [
      'type=deposit&asset=BTC&status=completed',
      "transaction_type = 'deposit' AND asset_id = 'BTC' AND status = 'completed'",
    ],
    ['type=withdrawal&status=pending', "transaction_type = 'withdrawal' AND status = 'pending'"],
    // An empty parameter is no filter (a form's "All").
    ['type=&asset=&status=&q=', 'true'],
  ])('%s lists exactly the matching rows, newest first, and counts them', async (query, sql) => {
    const expected = await truth(sql, NEWEST);
    const { pages, ids } = await forward(`limit=7&${query}`);
    expect(ids).toEqual(expected);
    for (const p of pages) expect(p.total).toBe(expected.length);
  });

  it('never lists the neighbour’s rows, whatever the filter', async () => {
    const { rows } = await t.services.pool.query<{ id: string }>(
      'SELECT id FROM transactions WHERE user_id = $1',
      [other.userId],
    );
    const theirs = new Set(rows.map((r) => r.id));
    for (const query of ['', 'type=deposit', 'asset=ETH&status=pending', 'q=0.5', 'q=0x']) {
      const { ids } = await forward(`limit=100&${query}`);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.filter((id) => theirs.has(id))).toEqual([]);
    }
  });
});

describe('GET /api/transactions: search', () => {
  it('finds a transaction hash by any part of it, in any case', async () => {
    const { rows } = await t.services.pool.query<{ id: string; transaction_hash: string }>(
      `SELECT id, transaction_hash FROM transactions
        WHERE user_id = $1 AND asset_id = 'ETH' AND transaction_type = 'deposit'`,
      [user.userId],
    );
    const [deposit] = rows;
    if (!deposit) throw new Error('no ETH deposit');
    // Stored in its one form, 0x and lower case; typed in capitals, or the middle of it.
    for (const q of [
      deposit.transaction_hash.toUpperCase(),
      deposit.transaction_hash.slice(2, 14).toUpperCase(),
      deposit.transaction_hash.slice(20, 40),
    ]) {
      const p = await page(`q=${encodeURIComponent(q)}`);
      expect(p.items.map((i) => i.id)).toEqual([deposit.id]);
      expect(p.total).toBe(1);
    }
  });

  it('finds withdrawals by their address, in any case', async () => {
    const expected = await truth("transaction_type = 'withdrawal'", NEWEST);
    for (const q of [GOOD_ADDRESS.ETH, GOOD_ADDRESS.ETH.toLowerCase(), 'aaeb6053f3e94c9b']) {
      const { ids, pages } = await forward(`q=${encodeURIComponent(q)}`);
      expect(ids).toEqual(expected);
      expect(pages[0]?.total).toBe(3);
    }
  });

  it('matches an amount exactly as a decimal: 0.5 is 0.50, never 0.05, 5 or 0.55', async () => {
    const expected = await truth('crypto_amount = 0.5', NEWEST);
    // The BTC deposit, the staking reward and the adjustment.
    expect(expected).toHaveLength(3);
    for (const q of ['0.5', '0.50', '0.500000000000000000', '.5']) {
      const p = await page(`q=${q}`);
      expect(p.items.map((i) => i.id)).toEqual(expected);
      expect(p.items.every((i) => i.amount === '0.5')).toBe(true);
    }
    expect((await page('q=0.50000001')).items.map((i) => i.amount)).toEqual(['0.50000001']);
    expect((await page('q=1.5')).total).toBe(24);
    expect((await page('q=0.505')).total).toBe(0);
  });

  it('takes % and _ as the characters they are, never as wildcards', async () => {
    // Addresses as a staff member might have typed them by hand: the ledger takes them as
    // they are (a customer's own requests carry checked addresses).
    const marked = await post(user.userId, {
      assetId: 'BTC',
      type: 'withdrawal',
      direction: 'debit',
      amount: '0.001',
      status: 'pending',
      withdrawalAddress: 'pay%to_me\\now',
      transactionDate: new Date(DAY - 5 * 60_000),
    });
    const lookalike = await post(user.userId, {
      assetId: 'BTC',
      type: 'withdrawal',
      direction: 'debit',
      amount: '0.002',
      status: 'pending',
      withdrawalAddress: 'payXtoYme',
      transactionDate: new Date(DAY - 6 * 60_000),
    });
    for (const q of ['%', '_', 'y%t', 'o_m', '%to_', '\\', 'PAY%TO_ME\\NOW']) {
      const p = await page(`q=${encodeURIComponent(q)}`);
      expect(
        p.items.map((i) => i.id),
        q,
      ).toEqual([marked.id]);
      expect(p.total).toBe(1);
    }
    // As patterns these would match the look-alike: as text, nothing has them.
    for (const q of ['y%me', 'pay_to', '%%', '__']) {
      expect((await page(`q=${encodeURIComponent(q)}`)).items, q).toEqual([]);
    }
    expect((await page('q=payXto')).items.map((i) => i.id)).toEqual([lookalike.id]);
  });

  it('searches within the filters', async () => {
    const p = await page(`q=${GOOD_ADDRESS.ETH}&status=failed`);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({ type: 'withdrawal', amount: '3' });
    expect(p.total).toBe(1);
    expect((await page('q=0.5&type=staking_reward')).items).toHaveLength(1);
    expect((await page('q=0.5&asset=BTC&type=deposit')).items).toHaveLength(1);
  });
});

describe('GET /api/transactions: sorts across pages', () => {
  it.each([
    ['sort=date&order=desc', 'true', NEWEST],
    ['sort=date&order=asc', 'true', 'transaction_date ASC, id ASC'],
    ['sort=amount&order=desc', 'true', 'crypto_amount DESC, id DESC'],
    ['sort=amount&order=asc', 'true', 'crypto_amount ASC, id ASC'],
    [
      'sort=amount&order=asc&asset=BTC&type=deposit',
      "asset_id = 'BTC' AND transaction_type = 'deposit'",
      'crypto_amount ASC, id ASC',
    ],
    ['sort=date&order=asc&q=1.5', 'crypto_amount = 1.5', 'transaction_date ASC, id ASC'],
  ])(
    '%s: every row once, in order, forward with Next and back with Previous',
    async (query, sql, order) => {
      const expected = await truth(sql, order);
      for (const limit of [4, 5, 25]) {
        const { pages, ids } = await forward(`limit=${limit}&${query}`);
        expect(ids).toEqual(expected);
        expect(new Set(ids).size).toBe(ids.length);
        expect(pages[0]?.prevCursor).toBeNull();
        expect(pages.at(-1)?.nextCursor).toBeNull();
        // Back from the last page through every Previous: the same pages, in reverse.
        const back: Page[] = [pages.at(-1) as Page];
        let before = pages.at(-1)?.prevCursor ?? null;
        while (before && back.length < 100) {
          const p = await page(`limit=${limit}&${query}&before=${before}`);
          back.unshift(p);
          before = p.prevCursor;
        }
        expect(back.map((p) => p.items.map((i) => i.id))).toEqual(
          pages.map((p) => p.items.map((i) => i.id)),
        );
        // A page reached from either side links onwards to the same neighbours.
        for (const [i, p] of back.entries()) {
          expect(p.nextCursor === null).toBe(i === back.length - 1);
          expect(p.prevCursor === null).toBe(i === 0);
        }
      }
    },
  );

  it('a reload of a page’s link shows the same page', async () => {
    const first = await page('limit=6&sort=amount&order=desc');
    const second = await page(`limit=6&sort=amount&order=desc&cursor=${first.nextCursor}`);
    const again = await page(`limit=6&sort=amount&order=desc&cursor=${first.nextCursor}`);
    expect(again).toEqual(second);
    const back = await page(`limit=6&sort=amount&order=desc&before=${second.prevCursor}`);
    expect(back.items).toEqual(first.items);
  });
});

describe('GET /api/transactions: refusals', () => {
  const dateCursor = () => page('limit=2').then((p) => p.nextCursor ?? '');

  it.each([
    ['type=cancelled', /^Unknown transaction type\. Choose one of: deposit, withdrawal, /],
    ['type=deposit&type=withdrawal', /^Unknown transaction type\./],
    [
      'asset=DOGE',
      /^Unknown asset\. Choose one of: BTC, ETH, USDT-ERC20, USDT-TRC20, USDC, AUD\.$/,
    ],
    ['status=cancelled', /^Unknown status\. Choose pending, completed or failed\.$/],
    ['sort=price', /^Sort by date or by amount\.$/],
    ['order=up', /^Order asc \(oldest or smallest first\) or desc/],
    [`q=${'a'.repeat(101)}`, /^The search can be at most 100 characters\.$/],
    ['limit=0', /^The page size must be a whole number from 1 to 100\.$/],
    ['limit=1.5', /^The page size must be a whole number from 1 to 100\.$/],
    ['cursor=x&before=y', /^Send either cursor \(the page after\) or before/],
    [`before=${'x'.repeat(201)}`, /^This page link is no longer valid\. Reload the history\.$/],
  ])('%s is a 400 saying what is wrong, and changes nothing', async (query, message) => {
    const res = await withoutChange(t, () =>
      call(t, { url: `/api/transactions?${query}`, cookie: user.cookie }),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toBe('VALIDATION_FAILED');
    expect(errorOf(res).message).toMatch(message);
    const csv = await call(t, {
      url: `/api/transactions/export.csv?${query}`,
      cookie: user.cookie,
    });
    // The export takes the filters only; its refusals are the same.
    if (!/^(limit|cursor|before)=/.test(query)) {
      expect(csv.statusCode).toBe(400);
      expect(errorOf(csv).message).toMatch(message);
    }
  });

  it('refuses a date cursor under the amount sort, an amount one under the date sort, and forged ones', async () => {
    const byDate = await dateCursor();
    const byAmount = (await page('limit=2&sort=amount')).nextCursor ?? '';
    const forged = [
      `sort=amount&cursor=${byDate}`,
      `sort=amount&before=${byDate}`,
      `cursor=${byAmount}`,
      `sort=amount&cursor=${Buffer.from('a-1:00000000-0000-0000-0000-000000000000').toString('base64url')}`,
      `sort=amount&cursor=${Buffer.from(`a${'9'.repeat(21)}:00000000-0000-0000-0000-000000000000`).toString('base64url')}`,
      `sort=amount&cursor=${Buffer.from("a1:x' OR 1=1").toString('base64url')}`,
    ];
    for (const query of forged) {
      const res = await withoutChange(t, () =>
        call(t, { url: `/api/transactions?${query}`, cookie: user.cookie }),
      );
      expect(res.statusCode, query).toBe(400);
      expect(errorOf(res)).toEqual({
        error: 'VALIDATION_FAILED',
        message: 'This page link is no longer valid. Reload the history.',
      });
    }
  });
});

describe('GET /api/transactions/export.csv: follows the page', () => {
  /** The CSV's rows as [type, asset, amount, status], without the header. */
  async function csv(query: string): Promise<string[][]> {
    const res = await call(t, {
      url: `/api/transactions/export.csv?${query}`,
      cookie: user.cookie,
    });
    expect(res.statusCode).toBe(200);
    return res.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => {
        const cells = line.split(',');
        return [cells[1] ?? '', cells[2] ?? '', cells[3] ?? '', cells[9] ?? ''];
      });
  }

  /** The same rows as the list shows them, through every page. */
  async function listed(query: string): Promise<string[][]> {
    const res = await call(t, {
      url: `/api/transactions?limit=100&${query}`,
      cookie: user.cookie,
    });
    const body: {
      items: Array<{ type: string; assetId: string; amount: string; status: string }>;
    } = res.json();
    return body.items.map((i) => [i.type, i.assetId, i.amount, i.status]);
  }

  it.each([
    'type=withdrawal',
    'asset=ETH&status=completed',
    'status=pending',
    'q=0.5',
    `q=${GOOD_ADDRESS.ETH.slice(5, 20)}&status=pending`,
    'sort=amount&order=desc',
    'sort=amount&order=asc&asset=BTC',
    'sort=date&order=asc&type=deposit',
  ])('%s: the file holds what the list shows, in its order', async (query) => {
    const rows = await csv(query);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(await listed(query));
  });

  it('narrowed to nothing, it is the header alone', async () => {
    expect(await csv('type=bank_transfer')).toEqual([]);
    expect(await csv('q=no-such-hash')).toEqual([]);
  });
});
