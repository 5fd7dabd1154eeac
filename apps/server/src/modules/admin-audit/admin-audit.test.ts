import { withTransaction } from '@server/db/tx';
import {
  call,
  createTestApp,
  errorOf,
  type SignedInUser,
  signUpAndSignIn,
  type TestApp,
  verifiedAdmin,
  verifiedCustomer,
} from '@server-test/helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../audit';

let t: TestApp;
let alice: SignedInUser;
let bob: SignedInUser;
let carol: SignedInUser;
let dave: SignedInUser;

async function record(entry: AuditEntry) {
  return withTransaction(t.services.pool, (client) => t.services.audit.record(client, entry));
}

/** Writes directly, as someone with database access and triggers turned off would. */
async function tamper(sql: string, params: unknown[] = []) {
  await withTransaction(t.services.pool, async (client) => {
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER ALL');
    await client.query(sql, params);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER ALL');
  });
}

const list = (query: string, cookie = alice.cookie) =>
  call(t, { url: `/api/admin/audit${query}`, cookie });

beforeAll(async () => {
  t = await createTestApp();
  alice = await verifiedAdmin(t);
  bob = await verifiedAdmin(t);
  carol = await verifiedCustomer(t);
  dave = await verifiedCustomer(t);
  // 30 rows by alice about carol, then a few by bob about dave, oldest first.
  for (let i = 1; i <= 30; i++) {
    await record({
      actorId: alice.userId,
      action: 'balance.adjust',
      targetType: 'wallet',
      targetId: `wallet-${i}`,
      targetUserId: carol.userId,
      before: { balance: `${i}` },
      after: { balance: `${i + 1}` },
      reason: `correction ${i}`,
      ip: '203.0.113.7',
    });
  }
  await record({
    actorId: bob.userId,
    action: 'user.2fa.reset',
    targetType: 'user',
    targetId: dave.userId,
    targetUserId: dave.userId,
    reason: 'lost phone',
    ip: '198.51.100.9',
  });
  await record({
    actorId: bob.userId,
    action: 'transaction.delete',
    targetType: 'transaction',
    targetId: 'tx-evil',
    targetUserId: dave.userId,
    before: { note: '=HYPERLINK("http://evil.example","click")' },
    reason: '=1+1',
    ip: '198.51.100.9',
  });
});
afterAll(async () => {
  await t.close();
});

describe('authorization', () => {
  it('refuses anonymous callers, customers and admins who have not passed 2FA', async () => {
    const halfAdmin = await signUpAndSignIn(t);
    await t.services.users.makeAdmin(halfAdmin.userId);
    for (const url of [
      '/api/admin/audit',
      '/api/admin/audit/facets',
      '/api/admin/audit/verify',
      '/api/admin/audit/export.csv',
    ]) {
      expect((await call(t, { url })).statusCode, url).toBe(401);
      const asCustomer = await call(t, { url, cookie: carol.cookie });
      expect(asCustomer.statusCode, url).toBe(403);
      expect(asCustomer.body).not.toContain('correction');
      expect((await call(t, { url, cookie: halfAdmin.cookie })).statusCode, url).toBe(403);
    }
  });
});

describe('GET /api/admin/audit', () => {
  it('pages newest first with the actor and target user e-mails', async () => {
    const first = await list('');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.total).toBe(32);
    expect(body.pageSize).toBe(25);
    expect(body.items).toHaveLength(25);
    expect(body.items[0]).toMatchObject({
      action: 'transaction.delete',
      actorId: bob.userId,
      actorEmail: bob.email,
      targetUserEmail: dave.email,
      reason: '=1+1',
      ip: '198.51.100.9',
      before: { note: '=HYPERLINK("http://evil.example","click")' },
      after: null,
    });
    expect(body.items[2]).toMatchObject({
      targetId: 'wallet-30',
      actorEmail: alice.email,
      targetUserEmail: carol.email,
      before: { balance: '30' },
      after: { balance: '31' },
    });
    const times = body.items.map((i: { createdAt: string }) => Date.parse(i.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const second = (await list('?page=2')).json();
    expect(second.items.map((i: { targetId: string }) => i.targetId)).toEqual([
      'wallet-7',
      'wallet-6',
      'wallet-5',
      'wallet-4',
      'wallet-3',
      'wallet-2',
      'wallet-1',
    ]);
    expect((await list('?page=3')).json().items).toEqual([]);
  });

  it('filters by actor, action and target user (id or e-mail), and searches text', async () => {
    const byBob = (await list(`?actor=${bob.userId}`)).json();
    expect(byBob.total).toBe(2);
    const resets = (await list('?action=user.2fa.reset')).json();
    expect(resets.items.map((i: { actorEmail: string }) => i.actorEmail)).toEqual([bob.email]);
    expect((await list(`?targetUser=${carol.userId}`)).json().total).toBe(30);
    expect((await list(`?targetUser=${encodeURIComponent(dave.email)}`)).json().total).toBe(2);
    expect((await list('?q=correction%2012')).json().items[0].targetId).toBe('wallet-12');
    expect((await list('?q=lost%20phone')).json().total).toBe(1);
    expect((await list(`?q=${encodeURIComponent(bob.email)}`)).json().total).toBe(2);
    // LIKE wildcards are taken literally.
    expect((await list('?q=%25')).json().total).toBe(0);
    const combined = (await list(`?actor=${alice.userId}&action=user.2fa.reset`)).json();
    expect(combined.total).toBe(0);
  });

  it('filters by date range (UTC days, both inclusive)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?from=${today}&to=${today}`)).json().total).toBe(32);
    expect((await list('?to=2000-01-01')).json().total).toBe(0);
    expect((await list('?from=2999-01-01')).json().total).toBe(0);
  });

  it('refuses bad filters with a clear message', async () => {
    const badDate = await list('?from=yesterday');
    expect(badDate.statusCode).toBe(400);
    expect(errorOf(badDate).message).toBe('Dates are written YYYY-MM-DD.');
    const badActor = await list('?actor=alice');
    expect(badActor.statusCode).toBe(400);
    expect(errorOf(badActor).message).toBe('Choose an admin from the list.');
  });

  it('offers the actions and admins found in the log as filter choices', async () => {
    const res = await call(t, { url: '/api/admin/audit/facets', cookie: alice.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().actions).toEqual(['balance.adjust', 'transaction.delete', 'user.2fa.reset']);
    expect(
      res
        .json()
        .actors.map((a: { email: string }) => a.email)
        .sort(),
    ).toEqual([alice.email, bob.email].sort());
  });
});

describe('GET /api/admin/audit/export.csv', () => {
  it('downloads the filtered rows as a spreadsheet-safe attachment', async () => {
    const res = await call(t, {
      url: `/api/admin/audit/export.csv?actor=${bob.userId}`,
      cookie: alice.cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="coffer-audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Id,Time (UTC),Actor,Action,Target type,Target,Target user,Before,After,Reason,IP',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `,${bob.email},transaction.delete,transaction,tx-evil,${dave.email},`,
    );
    // The formula in the reason is defused with a leading quote mark.
    expect(lines[1]).toMatch(/,'=1\+1,198\.51\.100\.9$/);
    // JSON cells are quoted, their quotes doubled.
    expect(lines[1]).toContain(
      '"{""note"":""=HYPERLINK(\\""http://evil.example\\"",\\""click\\"")""}"',
    );
    expect(lines[2]).toContain('user.2fa.reset');
    // No cell starts a formula.
    for (const line of lines.slice(1)) {
      for (const cell of line.split(',')) expect(cell).not.toMatch(/^[=+\-@]/);
    }
  });

  it('exports everything, newest first, across batches', async () => {
    const res = await call(t, { url: '/api/admin/audit/export.csv', cookie: alice.cookie });
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(33);
    expect(lines.at(-1)).toContain('wallet-1,');
  });
});

describe('GET /api/admin/audit/verify', () => {
  it('reports the chain intact, then names the first row edited or removed in the database', async () => {
    const ok = await call(t, { url: '/api/admin/audit/verify', cookie: alice.cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, rows: 32, firstBrokenId: null, reason: null });

    const { rows } = await t.services.pool.query<{ id: string }>(
      "SELECT id::text FROM audit_log WHERE target_id IN ('wallet-10', 'wallet-20') ORDER BY id",
    );
    const [tenth, twentieth] = rows.map((r) => r.id);
    await tamper('UPDATE audit_log SET after = \'{"balance": "1000000"}\' WHERE id = $1', [
      twentieth,
    ]);
    const edited = (await call(t, { url: '/api/admin/audit/verify', cookie: alice.cookie })).json();
    expect(edited).toMatchObject({
      ok: false,
      firstBrokenId: twentieth,
      reason: 'content changed',
    });

    await tamper('DELETE FROM audit_log WHERE id = $1', [tenth]);
    const broken = (await call(t, { url: '/api/admin/audit/verify', cookie: alice.cookie })).json();
    // Now the deletion is the first break: the row after the gap no longer links to the one before.
    expect(broken).toMatchObject({ ok: false, reason: 'link broken', rows: null });
    expect(Number(broken.firstBrokenId)).toBe(Number(tenth) + 1);
  });
});
