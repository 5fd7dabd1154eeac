import type { TAuditFilters } from '@coffer/shared';
import type { ColumnsOf } from '@server/db/rows';
import type { auditLog } from '@server/db/schema/index';
import type pg from 'pg';

/** An audit row as the screen lists it, with the e-mails of its actor and target user. */
export type AuditListRow = ColumnsOf<
  typeof auditLog,
  | 'id'
  | 'created_at'
  | 'actor_id'
  | 'action'
  | 'target_type'
  | 'target_id'
  | 'target_user_id'
  | 'before'
  | 'after'
  | 'reason'
  | 'ip'
> & { actor_email: string | null; target_email: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%text%` for ILIKE, with the pattern characters taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const SELECT = `SELECT a.id::text AS id, a.created_at, a.actor_id, ua.email AS actor_email, a.action,
        a.target_type, a.target_id, a.target_user_id, ut.email AS target_email,
        a.before, a.after, a.reason, a.ip
   FROM audit_log a
   LEFT JOIN users ua ON ua.id = a.actor_id
   LEFT JOIN users ut ON ut.id = a.target_user_id`;

/** The WHERE clause of the filters and its parameters, numbered from $1. */
function where(f: TAuditFilters): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const parts: string[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (f.actor) parts.push(`a.actor_id = ${add(f.actor)}::uuid`);
  if (f.action) parts.push(`a.action = ${add(f.action)}`);
  if (f.targetUser) {
    parts.push(
      UUID.test(f.targetUser)
        ? `a.target_user_id = ${add(f.targetUser)}::uuid`
        : `a.target_user_id IN (SELECT id FROM users WHERE email ILIKE ${add(contains(f.targetUser))})`,
    );
  }
  if (f.from) parts.push(`a.created_at >= ${add(f.from)}::date::timestamp AT TIME ZONE 'UTC'`);
  if (f.to) {
    parts.push(`a.created_at < (${add(f.to)}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  }
  if (f.q) {
    const p = add(contains(f.q));
    parts.push(
      `(a.action ILIKE ${p} OR a.target_type ILIKE ${p} OR a.target_id ILIKE ${p}
        OR a.reason ILIKE ${p} OR a.ip ILIKE ${p} OR ua.email ILIKE ${p} OR ut.email ILIKE ${p})`,
    );
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** The audit log as the admin screen reads it: filtered, newest first. Read-only. */
export const adminAuditRepository = {
  async page(pool: pg.Pool, f: TAuditFilters, limit: number, offset: number) {
    const w = where(f);
    const n = w.params.length;
    const [rows, count] = await Promise.all([
      pool.query<AuditListRow>(
        `${SELECT} ${w.sql} ORDER BY a.created_at DESC, a.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...w.params, limit, offset],
      ),
      pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log a
           LEFT JOIN users ua ON ua.id = a.actor_id
           LEFT JOIN users ut ON ut.id = a.target_user_id ${w.sql}`,
        w.params,
      ),
    ]);
    return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
  },

  /** Rows older than `beforeId` (all when null), newest first: the export's next batch. */
  async batch(pool: pg.Pool, f: TAuditFilters, beforeId: string | null, limit: number) {
    const w = where(f);
    const n = w.params.length;
    const keyset = beforeId === null ? '' : `${w.sql ? 'AND' : 'WHERE'} a.id < $${n + 2}::bigint`;
    const { rows } = await pool.query<AuditListRow>(
      `${SELECT} ${w.sql} ${keyset} ORDER BY a.id DESC LIMIT $${n + 1}`,
      beforeId === null ? [...w.params, limit] : [...w.params, limit, beforeId],
    );
    return rows;
  },

  /**
   * The distinct actions and actors, each by a skip scan of its index: one probe per
   * distinct value rather than a read of the whole log.
   */
  async facets(pool: pg.Pool) {
    const [actions, actors] = await Promise.all([
      pool.query<{ v: string }>(
        `WITH RECURSIVE t(v) AS (
           SELECT min(action) FROM audit_log
           UNION ALL
           SELECT (SELECT min(action) FROM audit_log WHERE action > t.v) FROM t WHERE t.v IS NOT NULL)
         SELECT v FROM t WHERE v IS NOT NULL`,
      ),
      pool.query<{ id: string; email: string | null }>(
        `WITH RECURSIVE t(v) AS (
           (SELECT actor_id FROM audit_log WHERE actor_id IS NOT NULL ORDER BY actor_id LIMIT 1)
           UNION ALL
           SELECT (SELECT actor_id FROM audit_log WHERE actor_id > t.v ORDER BY actor_id LIMIT 1)
             FROM t WHERE t.v IS NOT NULL)
         SELECT t.v::text AS id, u.email FROM t LEFT JOIN users u ON u.id = t.v
          WHERE t.v IS NOT NULL ORDER BY u.email NULLS LAST`,
      ),
    ]);
    return { actions: actions.rows.map((r) => r.v), actors: actors.rows };
  },
};
