import { randomBytes } from 'node:crypto';
import { QUEUE_CURSOR_INVALID } from '@coffer/shared';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The KYC review queue: keyset pages in either order (submissions made at the same instant
 * neither repeated nor skipped), the status filter and the search by name or e-mail.
 */

let t: TestApp;
let admin: SignedInUser;
/** Every submission, oldest first as the queue should list them. */
const oldestFirst: string[] = [];
const byName = new Map<string, string>();

type Item = { id: string; email: string; fullName: string; status: string };
type Page = {
  submissions: Item[];
  nextCursor: string | null;
  prevCursor: string | null;
  total: number;
};

const SAME_TIME = '2025-05-05T05:05:05.123456Z';

/** A customer and their submission, as stored (the documents are not read here). */
async function submission(name: string, email: string, status: string, createdAt: string) {
  const { rows: users } = await t.services.pool.query<{ id: string }>(
    `INSERT INTO users (email, password_hash) VALUES ($1, 'not a hash') RETURNING id`,
    [email],
  );
  const { rows } = await t.services.pool.query<{ id: string }>(
    `INSERT INTO kyc_submissions (user_id, full_name, phone_number, address, status,
       front_document_key, front_document_name, front_document_type, created_at)
     VALUES ($1, $2, '+61 400 000 000', '1 Main St', $3, 'kyc-documents/x', 'front.jpg',
       'image/jpeg', $4) RETURNING id`,
    [users[0]?.id, name, status, createdAt],
  );
  const id = rows[0]?.id as string;
  byName.set(name, id);
  return id;
}

async function queue(query: Record<string, string> = {}): Promise<Page> {
  const res = await call(t, {
    url: `/api/admin/kyc?${new URLSearchParams(query)}`,
    cookie: admin.cookie,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const idsOf = (page: Page) => page.submissions.map((s) => s.id);

beforeAll(async () => {
  t = await createTestApp();
  admin = await verifiedAdmin(t);
  const tag = randomBytes(3).toString('hex');
  const first = await submission(
    'Ada Lovelace',
    `ada.${tag}@example.com`,
    'pending',
    '2025-01-01T00:00:00Z',
  );
  const tied: string[] = [];
  for (const [name, status] of [
    ['Grace Hopper', 'pending'],
    ['Alan Turing', 'approved'],
    ['Edsger 100% Dijkstra', 'pending'],
    ['Barbara Liskov', 'rejected'],
    ['Donald Knuth', 'pending'],
  ] as const) {
    const email = `${name.split(' ')[0]?.toLowerCase()}.${tag}@example.com`;
    tied.push(await submission(name, email, status, SAME_TIME));
  }
  const last = await submission(
    'Katherine Johnson',
    `k_j.${tag}@example.com`,
    'pending',
    '2025-06-01T00:00:00Z',
  );
  oldestFirst.push(first, ...tied.sort(), last);
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/kyc', () => {
  it('lists what waits for review, oldest first, with how many match', async () => {
    const waiting = await queue();
    expect(idsOf(waiting)).toEqual(
      oldestFirst.filter(
        (id) => id !== byName.get('Alan Turing') && id !== byName.get('Barbara Liskov'),
      ),
    );
    expect(waiting.submissions.every((s) => s.status === 'pending')).toBe(true);
    expect(waiting).toMatchObject({ total: 5, nextCursor: null, prevCursor: null });
    const all = await queue({ status: 'all' });
    expect(idsOf(all)).toEqual(oldestFirst);
    expect(all.total).toBe(7);
    expect(idsOf(await queue({ status: 'all', order: 'newest' }))).toEqual(
      [...oldestFirst].reverse(),
    );
  });

  it('pages by keyset through submissions made at the same instant, forward and back', async () => {
    for (const order of ['oldest', 'newest'] as const) {
      const expected = order === 'oldest' ? oldestFirst : [...oldestFirst].reverse();
      for (const limit of [1, 2, 3]) {
        const pages: string[][] = [];
        const query = { status: 'all', order, limit: String(limit) };
        let page = await queue(query);
        pages.push(idsOf(page));
        while (page.nextCursor) {
          page = await queue({ ...query, cursor: page.nextCursor });
          pages.push(idsOf(page));
        }
        expect(pages.flat()).toEqual(expected);
        const back: string[][] = [idsOf(page)];
        while (page.prevCursor) {
          page = await queue({ ...query, cursor: page.prevCursor });
          back.unshift(idsOf(page));
        }
        expect(back).toEqual(pages);
      }
    }
  });

  it('filters by status', async () => {
    const pending = await queue({ status: 'pending' });
    expect(pending.submissions.every((s) => s.status === 'pending')).toBe(true);
    expect(pending.total).toBe(5);
    expect(idsOf(await queue({ status: 'approved' }))).toEqual([byName.get('Alan Turing')]);
    expect(idsOf(await queue({ status: 'rejected' }))).toEqual([byName.get('Barbara Liskov')]);
  });

  it('searches names and e-mails, taking % and _ as the characters themselves', async () => {
    const all = (q: string) => queue({ q, status: 'all' });
    expect(idsOf(await all('hopper'))).toEqual([byName.get('Grace Hopper')]);
    expect(idsOf(await all('DONALD.'))).toEqual([byName.get('Donald Knuth')]);
    expect(idsOf(await all('liskov'))).toEqual([byName.get('Barbara Liskov')]);
    expect(idsOf(await all('100%'))).toEqual([byName.get('Edsger 100% Dijkstra')]);
    expect(idsOf(await all('%'))).toEqual([byName.get('Edsger 100% Dijkstra')]);
    expect(idsOf(await all('_'))).toEqual([byName.get('Katherine Johnson')]);
    expect(await all('a%z')).toMatchObject({ submissions: [], total: 0 });
    expect((await queue({ q: 'a', status: 'pending' })).total).toBe(
      (await queue({ status: 'pending' })).submissions.filter((s) =>
        `${s.fullName} ${s.email}`.toLowerCase().includes('a'),
      ).length,
    );
  });

  it('refuses bad parameters with a 400 that says what is wrong, changing nothing', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ status: 'waiting' }, 'Choose pending, approved, rejected or all.'],
      [{ order: 'random' }, 'Sort by oldest or newest.'],
      [{ limit: '-1' }, 'The page size must be a number from 1 to 100.'],
      [{ cursor: '!!' }, QUEUE_CURSOR_INVALID],
      [{ cursor: Buffer.from('b:12:abc').toString('base64url') }, QUEUE_CURSOR_INVALID],
    ];
    for (const [query, message] of cases) {
      const res = await withoutChange(t, () =>
        call(t, { url: `/api/admin/kyc?${new URLSearchParams(query)}`, cookie: admin.cookie }),
      );
      expect([res.statusCode, errorOf(res)], JSON.stringify(query)).toEqual([
        400,
        { error: 'VALIDATION_FAILED', message },
      ]);
    }
  });

  it('is for staff only', async () => {
    const customer = await verifiedCustomer(t);
    expect((await call(t, { url: '/api/admin/kyc', cookie: customer.cookie })).statusCode).toBe(
      403,
    );
  });
});
