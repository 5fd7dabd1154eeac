import { createHash } from 'node:crypto';
import { type TxClient, withTransaction } from '@server/db/tx';
import type pg from 'pg';
import { type AuditRow, auditRepository as repo } from './audit.repository';
import { canonicalJson, type JsonValue, toJsonValue, wellFormed } from './canonical-json';

/** The first row's `prev_hash`. */
export const GENESIS_HASH = '0'.repeat(64);

/** Names the hash format; a future format gets a new tag and old rows keep theirs. */
const FORMAT = 'coffer-audit-v1';

export type AuditEntry = {
  /** The admin who acted; null for the system itself. */
  actorId: string | null;
  /** What was done, e.g. `balance.adjust`. */
  action: string;
  /** What it was done to, e.g. `transaction` and its id. */
  targetType: string;
  targetId: string;
  /** The customer it concerns, if any. */
  targetUserId?: string | null;
  /** The target before and after; any JSON-able value (bigints are written as decimal text). */
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  ip?: string | null;
};

export type AuditVerification =
  | { ok: true; rows: number }
  /**
   * `content changed`: the row no longer matches its own hash. `link broken`: the row does
   * not point at the row before it, so a row in between was deleted (or one re-hashed).
   * Id gaps prove nothing: a rolled-back append leaves one.
   */
  | { ok: false; firstBrokenId: string; reason: 'content changed' | 'link broken' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** PostgreSQL prints uuids in lower case; the hash must cover what it will print. */
function uuidOrNull(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (!UUID.test(value)) throw new Error(`audit ${field} is not a uuid: ${value}`);
  return value.toLowerCase();
}

const textOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : wellFormed(value);

/**
 * SHA-256, hex, over the canonical JSON of the array
 * [format, id, created_at, actor_id, action, target_type, target_id, target_user_id,
 *  before, after, reason, ip, prev_hash], ids and times as the database prints them.
 */
export function auditHash(row: Omit<AuditRow, 'hash'>): string {
  const content: JsonValue[] = [
    FORMAT,
    row.id,
    row.created_at,
    row.actor_id,
    row.action,
    row.target_type,
    row.target_id,
    row.target_user_id,
    toJsonValue(row.before),
    toJsonValue(row.after),
    row.reason,
    row.ip,
    row.prev_hash,
  ];
  return createHash('sha256').update(canonicalJson(content), 'utf8').digest('hex');
}

/** The append-only, hash-chained log of admin actions (product.md M7). */
export function createAuditLog() {
  const log = {
    /**
     * Appends one row inside the caller's transaction, so the action and its record commit
     * or roll back together. The chain stays locked until that transaction ends: call this
     * last, after the action has taken its own row locks, so two actions cannot each hold
     * what the other waits for. The transaction must be READ COMMITTED (the default): a
     * snapshot older than the lock would miss the row before and fork the chain.
     */
    async record(client: TxClient, entry: AuditEntry): Promise<{ id: string; hash: string }> {
      await repo.lockChain(client);
      const head = await repo.head(client);
      if (head.isolation !== 'read committed') {
        throw new Error(`audit rows need a READ COMMITTED transaction, not ${head.isolation}`);
      }
      const before = entry.before === undefined ? null : toJsonValue(entry.before);
      const after = entry.after === undefined ? null : toJsonValue(entry.after);
      const row = {
        id: head.id,
        actor_id: uuidOrNull(entry.actorId, 'actorId'),
        action: wellFormed(entry.action),
        target_type: wellFormed(entry.targetType),
        target_id: wellFormed(entry.targetId),
        target_user_id: uuidOrNull(entry.targetUserId, 'targetUserId'),
        before,
        after,
        reason: textOrNull(entry.reason),
        ip: textOrNull(entry.ip),
        created_at: head.created_at,
        prev_hash: head.last_hash ?? GENESIS_HASH,
      };
      const hash = auditHash(row);
      await repo.insert(client, { ...row, hash });
      return { id: row.id, hash };
    },

    /**
     * One row in a transaction of its own, committed before the caller goes on: for what
     * staff read (a conversation, an attachment, a bank account, an identity document),
     * where no change of the request's own carries the row.
     */
    async recordAlone(pool: pg.Pool, entry: AuditEntry): Promise<{ id: string; hash: string }> {
      return withTransaction(pool, (client) => log.record(client, entry));
    },

    /**
     * Walks the whole chain in id order, a batch at a time, and names the first row that
     * does not hold. Deleting the newest rows leaves a shorter chain that still holds: only
     * a copy of the last hash kept elsewhere would show that.
     */
    async verify(pool: pg.Pool, batchSize = 1000): Promise<AuditVerification> {
      let expectedPrev = GENESIS_HASH;
      let lastId = '0';
      let count = 0;
      for (;;) {
        const batch = await repo.batchAfter(pool, lastId, batchSize);
        for (const row of batch) {
          const { hash, ...content } = row;
          if (auditHash(content) !== hash) {
            return { ok: false, firstBrokenId: row.id, reason: 'content changed' };
          }
          if (row.prev_hash !== expectedPrev) {
            return { ok: false, firstBrokenId: row.id, reason: 'link broken' };
          }
          expectedPrev = hash;
          lastId = row.id;
          count += 1;
        }
        if (batch.length < batchSize) return { ok: true, rows: count };
      }
    },
  };
  return log;
}

export type AuditLog = ReturnType<typeof createAuditLog>;
