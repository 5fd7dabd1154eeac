import type { ColumnsOf } from '@server/db/rows';
import type { staffChanges } from '@server/db/schema/index';
import type { TxClient } from '@server/db/tx';
import type pg from 'pg';

type Db = pg.Pool | TxClient;

/** A change as staff see it: its row, with the proposer's and the subject's e-mail. */
export type StaffChangeRow = ColumnsOf<
  typeof staffChanges,
  | 'id'
  | 'kind'
  | 'subject_user_id'
  | 'target_key'
  | 'funds_subject'
  | 'payload'
  | 'summary'
  | 'before'
  | 'after'
  | 'proposed_by'
  | 'proposed_at'
  | 'expires_at'
  | 'status'
  | 'decided_by'
  | 'decided_at'
> & { proposer_email: string; subject_email: string | null; expired: boolean };

const COLUMNS = `c.id, c.kind, c.subject_user_id, c.target_key, c.funds_subject, c.payload, c.summary,
  c.before, c.after, c.proposed_by, c.proposed_at, c.expires_at, c.status, c.decided_by,
  c.decided_at, p.email AS proposer_email, s.email AS subject_email,
  (c.expires_at <= now()) AS expired`;
const FROM = `staff_changes c JOIN users p ON p.id = c.proposed_by
  LEFT JOIN users s ON s.id = c.subject_user_id`;

export type NewChange = {
  kind: string;
  subjectUserId: string | null;
  targetKey: string | null;
  fundsSubject: boolean;
  payload: unknown;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  proposedBy: string;
  ttlHours: number;
};

/** The only code that reads or writes `staff_changes`. */
export const staffChangesRepository = {
  /** The changes still waiting (pending and not expired), oldest first, optionally of some kinds. */
  async pending(db: Db, kinds: readonly string[] | null): Promise<StaffChangeRow[]> {
    const { rows } = await db.query<StaffChangeRow>(
      `SELECT ${COLUMNS} FROM ${FROM}
        WHERE c.status = 'pending' AND c.expires_at > now()
          AND ($1::text[] IS NULL OR c.kind = ANY($1::text[]))
        ORDER BY c.proposed_at, c.id`,
      [kinds],
    );
    return rows;
  },

  async find(db: Db, id: string): Promise<StaffChangeRow | null> {
    const { rows } = await db.query<StaffChangeRow>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE c.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  },

  /**
   * The change locked until the transaction ends, read after the wait: of parallel
   * decisions the first decides and the others find it decided.
   */
  async lock(client: TxClient, id: string): Promise<StaffChangeRow | null> {
    const { rows } = await client.query<StaffChangeRow>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE c.id = $1 FOR UPDATE OF c`,
      [id],
    );
    return rows[0] ?? null;
  },

  /**
   * Marks the pending change of the same kind and target, if any, replaced by a newer
   * proposal: its id, or null. The newest intent is the one an approver is asked about.
   */
  async replacePending(
    client: TxClient,
    kind: string,
    targetKey: string,
    by: string,
  ): Promise<string | null> {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE staff_changes SET status = 'replaced', decided_by = $3, decided_at = now()
        WHERE kind = $1 AND target_key = $2 AND status = 'pending' RETURNING id`,
      [kind, targetKey, by],
    );
    return rows[0]?.id ?? null;
  },

  async insert(client: TxClient, c: NewChange): Promise<string> {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO staff_changes (kind, subject_user_id, target_key, funds_subject, payload, summary,
              before, after, proposed_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(hours => $10))
       RETURNING id`,
      [
        c.kind,
        c.subjectUserId,
        c.targetKey,
        c.fundsSubject,
        JSON.stringify(c.payload),
        c.summary,
        c.before === null ? null : JSON.stringify(c.before),
        c.after === null ? null : JSON.stringify(c.after),
        c.proposedBy,
        c.ttlHours,
      ],
    );
    const id = rows[0]?.id;
    if (!id) throw new Error('the proposed change was not stored');
    return id;
  },

  async decide(
    client: TxClient,
    id: string,
    status: 'approved' | 'rejected' | 'expired',
    by: string | null,
    result: unknown,
  ): Promise<void> {
    await client.query(
      `UPDATE staff_changes SET status = $2, decided_by = $3, decided_at = now(), result = $4
        WHERE id = $1`,
      [id, status, by, result === undefined || result === null ? null : JSON.stringify(result)],
    );
  },

  /**
   * Whether `staffId` proposed or approved a manual credit or adjustment of `customerId`
   * that applied within the last `days` days.
   */
  async fundedRecently(
    db: Db,
    staffId: string,
    customerId: string,
    days: number,
  ): Promise<boolean> {
    const { rows } = await db.query<{ funded: boolean }>(
      `SELECT EXISTS (
         SELECT 1 FROM staff_changes
          WHERE funds_subject AND status = 'approved' AND subject_user_id = $2
            AND decided_at > now() - make_interval(days => $3)
            AND (proposed_by = $1 OR decided_by = $1)) AS funded`,
      [staffId, customerId, days],
    );
    return rows[0]?.funded ?? false;
  },
};
