import { randomUUID } from 'node:crypto';
import { CliError, COMMANDS } from '@server/cli-commands';
import { withTransaction } from '@server/db/tx';
import { createTestApp, type TestApp } from '@server-test/helpers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from './audit.service';
import { GENESIS_HASH } from './audit.service';
import { canonicalJson } from './canonical-json';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Each test starts from an empty log; only a table owner with triggers off can empty it. */
beforeEach(async () => {
  await asOwnerWithoutTriggers('TRUNCATE audit_log');
});

async function asOwnerWithoutTriggers(sql: string, params: unknown[] = []): Promise<void> {
  await withTransaction(t.services.pool, async (client) => {
    await client.query('ALTER TABLE audit_log DISABLE TRIGGER ALL');
    await client.query(sql, params);
    await client.query('ALTER TABLE audit_log ENABLE TRIGGER ALL');
  });
}

const entry = (n: number): AuditEntry => ({
  actorId: randomUUID(),
  action: 'balance.adjust',
  targetType: 'wallet',
  targetId: `wallet-${n}`,
  targetUserId: randomUUID(),
  before: { balance: '1.5', n },
  after: { balance: '2.5', n },
  reason: `correction ${n}`,
  ip: '203.0.113.7',
});

const record = (e: AuditEntry) =>
  withTransaction(t.services.pool, (client) => t.services.audit.record(client, e));

type Link = { id: string; prev_hash: string; hash: string };
async function chain(): Promise<Link[]> {
  const { rows } = await t.services.pool.query<Link>(
    'SELECT id::text, prev_hash, hash FROM audit_log ORDER BY audit_log.id',
  );
  return rows;
}

function expectOneChain(rows: Link[]): void {
  rows.forEach((row, i) => {
    expect(row.prev_hash).toBe(i === 0 ? GENESIS_HASH : rows[i - 1]?.hash);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
  });
  expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
}

/** What a promise was rejected with, or null when it resolved. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err,
  );

const auditVerify = () => {
  const command = COMMANDS['audit-verify'];
  if (!command) throw new Error('no audit-verify command');
  return command.run(t.services, []);
};

describe('canonicalJson', () => {
  it('spells a value one way whatever its key order', () => {
    expect(canonicalJson({ b: [1, { z: null, a: 'x' }], a: true })).toBe(
      '{"a":true,"b":[1,{"a":"x","z":null}]}',
    );
  });
});

describe('audit log', () => {
  it('chains each row to the one before, from the genesis hash, and stores the entry', async () => {
    const first = await record(entry(1));
    await record(entry(2));
    await record({ actorId: null, action: 'system.start', targetType: 'app', targetId: '-' });

    const rows = await chain();
    expect(rows).toHaveLength(3);
    expectOneChain(rows);
    expect(rows[0]).toEqual({ id: first.id, prev_hash: GENESIS_HASH, hash: first.hash });

    const { rows: stored } = await t.services.pool.query(
      'SELECT action, target_id, before, after, reason, ip FROM audit_log WHERE id = $1',
      [first.id],
    );
    expect(stored).toEqual([
      {
        action: 'balance.adjust',
        target_id: 'wallet-1',
        before: { balance: '1.5', n: 1 },
        after: { balance: '2.5', n: 1 },
        reason: 'correction 1',
        ip: '203.0.113.7',
      },
    ]);
    // Across batch boundaries too.
    expect(await t.services.audit.verify(t.services.pool, 2)).toEqual({ ok: true, rows: 3 });
  });

  it('hashes values as the database gives them back: key order, bigints, dates, odd text, upper-case ids', async () => {
    await record({
      actorId: randomUUID().toUpperCase(),
      action: 'transaction.edit',
      targetType: 'transaction',
      targetId: 'tx-1',
      before: { z: 1, a: { y: [3, 2n], b: new Date('2026-01-02T03:04:05.678Z') }, e: 1e-7 },
      after: { amount: 123456789012345678901234567890n, note: 'café \uD83D\uDCB0 \uD800 "q"\n' },
      reason: 'lone \uDC00 surrogate',
    });
    expect(await t.services.audit.verify(t.services.pool)).toEqual({ ok: true, rows: 1 });
  });

  it('leaves nothing when the transaction rolls back, and the id it used is no break', async () => {
    await record(entry(1));
    const failure = await rejection(
      withTransaction(t.services.pool, async (client) => {
        await t.services.audit.record(client, entry(2));
        throw new Error('the action failed');
      }),
    );
    expect(failure).toEqual(new Error('the action failed'));
    expect(await chain()).toHaveLength(1);

    await record(entry(3));
    const rows = await chain();
    expect(rows).toHaveLength(2);
    expect(Number(rows[1]?.id) - Number(rows[0]?.id)).toBe(2);
    expect(await t.services.audit.verify(t.services.pool)).toEqual({ ok: true, rows: 2 });
  });

  it('keeps one unbroken chain when 20 transactions append at once', async () => {
    await record(entry(0));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withTransaction(t.services.pool, async (client) => {
          // Each does some work of its own first, so the appends interleave.
          await client.query('SELECT pg_sleep($1)', [Math.random() / 50]);
          await t.services.audit.record(client, entry(i + 1));
        }),
      ),
    );
    const rows = await chain();
    expect(rows).toHaveLength(21);
    expectOneChain(rows);
    expect(await t.services.audit.verify(t.services.pool, 7)).toEqual({ ok: true, rows: 21 });
  });

  it('refuses to append inside a snapshot that could miss the row before', async () => {
    const client = await t.services.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const failure = await rejection(t.services.audit.record(client, entry(1)));
      expect(failure).toEqual(
        new Error('audit rows need a READ COMMITTED transaction, not repeatable read'),
      );
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    expect(await chain()).toEqual([]);
  });

  it.each([
    ['UPDATE', "UPDATE audit_log SET reason = 'nothing to see'"],
    ['DELETE', 'DELETE FROM audit_log'],
    ['TRUNCATE', 'TRUNCATE audit_log'],
  ])('has the database refuse %s', async (op, sql) => {
    await record(entry(1));
    const before = await chain();
    const failure = await rejection(t.services.pool.query(sql));
    expect(failure).toBeInstanceOf(Error);
    expect(failure).toHaveProperty('message', `audit_log is append-only: ${op} is not allowed`);
    expect(await chain()).toEqual(before);
  });

  it('refuses UPDATE and DELETE even when they match no row', async () => {
    for (const sql of [
      'UPDATE audit_log SET ip = NULL WHERE false',
      'DELETE FROM audit_log WHERE false',
    ]) {
      expect(await rejection(t.services.pool.query(sql))).toBeInstanceOf(Error);
    }
  });

  it('names the row whose content was changed behind the trigger', async () => {
    for (let n = 1; n <= 5; n += 1) await record(entry(n));
    const rows = await chain();
    const target = rows[2]?.id;
    await asOwnerWithoutTriggers(
      `UPDATE audit_log SET after = jsonb_set(after, '{balance}', '"99"') WHERE id = $1`,
      [target],
    );
    expect(await t.services.audit.verify(t.services.pool, 2)).toEqual({
      ok: false,
      firstBrokenId: target,
      reason: 'content changed',
    });
  });

  it('names the row after one deleted behind the trigger, and the row after a re-hashed one', async () => {
    for (let n = 1; n <= 5; n += 1) await record(entry(n));
    const rows = await chain();
    await asOwnerWithoutTriggers('DELETE FROM audit_log WHERE id = $1', [rows[2]?.id]);
    expect(await t.services.audit.verify(t.services.pool)).toEqual({
      ok: false,
      firstBrokenId: rows[3]?.id,
      reason: 'link broken',
    });

    // Deleting the first row breaks the link of the next one to the genesis hash.
    await asOwnerWithoutTriggers('TRUNCATE audit_log');
    for (let n = 1; n <= 3; n += 1) await record(entry(n));
    const again = await chain();
    await asOwnerWithoutTriggers('DELETE FROM audit_log WHERE id = $1', [again[0]?.id]);
    expect(await t.services.audit.verify(t.services.pool)).toEqual({
      ok: false,
      firstBrokenId: again[1]?.id,
      reason: 'link broken',
    });
  });
});

describe('npm run cli -- audit-verify', () => {
  it('reports an intact log with its row count', async () => {
    expect(await auditVerify()).toBe('Audit log intact: 0 rows.');
    for (let n = 1; n <= 3; n += 1) await record(entry(n));
    expect(await auditVerify()).toBe('Audit log intact: 3 rows.');
  });

  it('names the first broken row and fails', async () => {
    for (let n = 1; n <= 3; n += 1) await record(entry(n));
    const rows = await chain();
    await asOwnerWithoutTriggers("UPDATE audit_log SET reason = 'edited' WHERE id = $1", [
      rows[1]?.id,
    ]);
    const failure = await rejection(auditVerify());
    expect(failure).toBeInstanceOf(CliError);
    expect(failure).toHaveProperty(
      'message',
      `Audit log broken at row ${rows[1]?.id}: content changed.`,
    );
  });
});
