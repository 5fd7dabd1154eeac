import {
  AUDIT_CSV_MAX_ROWS,
  AUDIT_PAGE_SIZE,
  type TAuditEntry,
  type TAuditFilters,
  type TAuditPage,
  type TAuditVerifyResponse,
} from '@coffer/shared';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import { csvLine } from '../history';
import { type AuditListRow, adminAuditRepository as repo } from './admin-audit.repository';

const present = (r: AuditListRow): TAuditEntry => ({
  id: r.id,
  createdAt: r.created_at.toISOString(),
  actorId: r.actor_id,
  actorEmail: r.actor_email,
  action: r.action,
  targetType: r.target_type,
  targetId: r.target_id,
  targetUserId: r.target_user_id,
  targetUserEmail: r.target_email,
  before: r.before,
  after: r.after,
  reason: r.reason,
  ip: r.ip,
});

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

const CSV_HEADER = [
  'Id',
  'Time (UTC)',
  'Actor',
  'Action',
  'Target type',
  'Target',
  'Target user',
  'Before',
  'After',
  'Reason',
  'IP',
];
const CSV_BATCH = 1000;

/** The audit log for admins (product.md M7): read, search, export, check the chain. */
export function createAdminAuditService(deps: { pool: pg.Pool; audit: AuditLog }) {
  const { pool } = deps;
  return {
    async list(filters: TAuditFilters, page: number): Promise<TAuditPage> {
      const { rows, total } = await repo.page(
        pool,
        filters,
        AUDIT_PAGE_SIZE,
        (page - 1) * AUDIT_PAGE_SIZE,
      );
      return { items: rows.map(present), page, pageSize: AUDIT_PAGE_SIZE, total };
    },

    facets: () => repo.facets(pool),

    /**
     * The filtered log as CSV, newest first, a batch at a time so memory stays flat; at
     * most AUDIT_CSV_MAX_ROWS rows, and a last line says when it stopped there. Cells are
     * spreadsheet-safe (history/csv.ts).
     */
    async *csv(filters: TAuditFilters): AsyncGenerator<string> {
      yield csvLine(CSV_HEADER);
      let last: string | null = null;
      let written = 0;
      for (;;) {
        const limit = Math.min(CSV_BATCH, AUDIT_CSV_MAX_ROWS - written);
        if (limit <= 0) {
          yield csvLine([
            `Export stopped after ${AUDIT_CSV_MAX_ROWS} rows; narrow the filters for the rest.`,
          ]);
          return;
        }
        const rows = await repo.batch(pool, filters, last, limit);
        for (const r of rows) {
          yield csvLine([
            r.id,
            r.created_at.toISOString(),
            r.actor_email ?? r.actor_id ?? 'system',
            r.action,
            r.target_type,
            r.target_id,
            r.target_email ?? r.target_user_id,
            json(r.before),
            json(r.after),
            r.reason,
            r.ip,
          ]);
        }
        written += rows.length;
        const tail = rows.at(-1);
        if (!tail || rows.length < limit) return;
        last = tail.id;
      }
    },

    async verify(): Promise<TAuditVerifyResponse> {
      const result = await deps.audit.verify(pool);
      const checkedAt = new Date().toISOString();
      return result.ok
        ? { ok: true, rows: result.rows, firstBrokenId: null, reason: null, checkedAt }
        : {
            ok: false,
            rows: null,
            firstBrokenId: result.firstBrokenId,
            reason: result.reason,
            checkedAt,
          };
    },
  };
}

export type AdminAuditService = ReturnType<typeof createAdminAuditService>;
