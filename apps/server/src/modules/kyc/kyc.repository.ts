import type { TKycStatus, TQueueOrder } from '@coffer/shared';
import { type KeyedRow, type Keyset, keysetSql } from '@server/db/keyset';
import type { ColumnsOf, RowOf } from '@server/db/rows';
import type { kycSubmissions, users } from '@server/db/schema/index';
import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type KycRow = RowOf<typeof kycSubmissions>;

/** A row with the customer's e-mail and the reviewer's, for the admin screens. */
export type AdminKycRow = KycRow &
  ColumnsOf<typeof users, 'email'> & { reviewer_email: string | null };

export type KycDocuments = {
  frontKey: string;
  frontName: string;
  frontType: string;
  backKey: string | null;
  backName: string | null;
  backType: string | null;
};

export type KycFields = { fullName: string; phoneNumber: string; address: string };

/** The review queue's search and status filter, as the service read them. */
export type KycListFilters = {
  status: TKycStatus | null;
  /** `%text%` for ILIKE on the customer's name and e-mail (wildcards escaped), or null. */
  pattern: string | null;
};

function adminWhere(f: KycListFilters, params: unknown[]): string {
  const parts = ['TRUE'];
  if (f.status) {
    params.push(f.status);
    parts.push(`k.status = $${params.length}`);
  }
  if (f.pattern) {
    params.push(f.pattern);
    parts.push(`(k.full_name ILIKE $${params.length} OR u.email ILIKE $${params.length})`);
  }
  return parts.join(' AND ');
}

const ADMIN_COLUMNS = 'k.*, u.email, r.email AS reviewer_email';
const ADMIN_FROM = `
    FROM kyc_submissions k
    JOIN users u ON u.id = k.user_id
    LEFT JOIN users r ON r.id = k.reviewed_by`;
const ADMIN_SELECT = `SELECT ${ADMIN_COLUMNS} ${ADMIN_FROM}`;

/** A submission's fields and documents in the column order both writes use ($2 to $10). */
const submissionValues = (fields: KycFields, docs: KycDocuments) => [
  fields.fullName,
  fields.phoneNumber,
  fields.address,
  docs.frontKey,
  docs.frontName,
  docs.frontType,
  docs.backKey,
  docs.backName,
  docs.backType,
];

export const kycRepository = {
  /** The customer's submission (one per customer), locked when a client is given. */
  async findByUser(db: Db, userId: string, lock = false): Promise<KycRow | null> {
    const { rows } = await db.query<KycRow>(
      `SELECT * FROM kyc_submissions WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    return rows[0] ?? null;
  },

  async insert(
    client: pg.PoolClient,
    userId: string,
    fields: KycFields,
    docs: KycDocuments,
  ): Promise<KycRow> {
    const { rows } = await client.query<KycRow>(
      `INSERT INTO kyc_submissions
         (user_id, full_name, phone_number, address,
          front_document_key, front_document_name, front_document_type,
          back_document_key, back_document_name, back_document_type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING *`,
      [userId, ...submissionValues(fields, docs)],
    );
    return rows[0] as KycRow;
  },

  /**
   * A resubmission after a rejection: the same row, pending again, the
   * decision cleared, the new documents; `created_at` becomes the new submission's time.
   */
  async resubmit(
    client: pg.PoolClient,
    id: string,
    fields: KycFields,
    docs: KycDocuments,
  ): Promise<KycRow> {
    const { rows } = await client.query<KycRow>(
      `UPDATE kyc_submissions
          SET full_name = $2, phone_number = $3, address = $4,
              front_document_key = $5, front_document_name = $6, front_document_type = $7,
              back_document_key = $8, back_document_name = $9, back_document_type = $10,
              status = 'pending', can_resubmit = false, review_notes = NULL,
              reviewed_by = NULL, reviewed_at = NULL,
              created_at = now(), updated_at = now()
        WHERE id = $1
        RETURNING *`,
      [id, ...submissionValues(fields, docs)],
    );
    return rows[0] as KycRow;
  },

  /**
   * A page of submissions by keyset on (created_at, id) in the order asked, oldest first
   * for the review queue; `kyc_submissions_created_idx` keeps them in date order.
   */
  async adminPage(
    db: Db,
    f: KycListFilters,
    page: { order: TQueueOrder; at: Keyset | null; limit: number },
  ): Promise<Array<AdminKycRow & KeyedRow>> {
    const params: unknown[] = [];
    const where = adminWhere(f, params);
    const keyset = keysetSql('k.created_at', 'k.id', page.order, page.at, params);
    params.push(page.limit + 1);
    const { rows } = await db.query<AdminKycRow & KeyedRow>(
      `SELECT ${ADMIN_COLUMNS}, ${keyset.keyUs} AS key_us ${ADMIN_FROM}
        WHERE ${where} AND ${keyset.where}
        ${keyset.orderBy} LIMIT $${params.length}`,
      params,
    );
    return rows;
  },

  /** How many submissions match the search and the status. */
  async adminCount(db: Db, f: KycListFilters): Promise<number> {
    const params: unknown[] = [];
    const where = adminWhere(f, params);
    const { rows } = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM kyc_submissions k JOIN users u ON u.id = k.user_id
        WHERE ${where}`,
      params,
    );
    return Number(rows[0]?.n ?? 0);
  },

  async findForAdmin(db: Db, id: string): Promise<AdminKycRow | null> {
    const { rows } = await db.query<AdminKycRow>(`${ADMIN_SELECT} WHERE k.id = $1`, [id]);
    return rows[0] ?? null;
  },

  async lockById(client: pg.PoolClient, id: string): Promise<KycRow | null> {
    const { rows } = await client.query<KycRow>(
      'SELECT * FROM kyc_submissions WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows[0] ?? null;
  },

  async review(
    client: pg.PoolClient,
    id: string,
    input: { status: 'approved' | 'rejected'; notes: string | null; reviewerId: string },
  ): Promise<KycRow> {
    const { rows } = await client.query<KycRow>(
      `UPDATE kyc_submissions
          SET status = $2, review_notes = $3, reviewed_by = $4, reviewed_at = now(),
              can_resubmit = ($2 = 'rejected'), updated_at = now()
        WHERE id = $1
        RETURNING *`,
      [id, input.status, input.notes, input.reviewerId],
    );
    return rows[0] as KycRow;
  },

  async emailOf(db: Db, userId: string): Promise<string | null> {
    const { rows } = await db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [
      userId,
    ]);
    return rows[0]?.email ?? null;
  },
};
