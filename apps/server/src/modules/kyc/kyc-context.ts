import {
  KYC_MSG,
  type TAdminKycDetail,
  type TAdminKycListItem,
  type TKycSide,
  type TKycSubmission,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { Client } from '@server/lib/client-of';
import type { FileStore } from '@server/lib/file-store';
import type { PrivateFile } from '@server/lib/private-file-reply';
import type { UploadedFile } from '@server/plugins/uploads';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import type { RateLimiter } from '../rate-limit';
import type { RealtimeHub } from '../realtime';
import type { StepUp, StepUpSubject } from '../step-up';
import type { AdminKycRow, KycRow } from './kyc.repository';

/**
 * What the parts of the KYC service share, built once by `createKycService`: the private
 * file store the documents live in, the audit log, the realtime hub, the outbox for mails
 * and file removals, the upload limiter and the address links in mails point to.
 */
export type KycContext = {
  pool: pg.Pool;
  files: FileStore;
  audit: AuditLog;
  realtime: RealtimeHub;
  outbox: Outbox;
  limiter: RateLimiter;
  /** The reviewer's fresh second factor confirms a decision (a staff write). */
  stepUp: StepUp;
  publicUrl: string;
};

/** Who acted and from where, for the audit row. */
export type KycActor = { adminId: string; ip: string | null };

/** A reviewer deciding: also the session and client whose step-up confirms the decision. */
export type KycReviewer = KycActor & { session: StepUpSubject; client: Client };

export type KycSubmissionInput = { fields: Record<string, string>; files: UploadedFile[] };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function documentsOf(row: KycRow) {
  return {
    front: { name: row.front_document_name, type: row.front_document_type },
    back:
      row.back_document_key && row.back_document_name && row.back_document_type
        ? { name: row.back_document_name, type: row.back_document_type }
        : null,
  };
}

export function presentOwn(row: KycRow): TKycSubmission {
  return {
    id: row.id,
    fullName: row.full_name,
    phoneNumber: row.phone_number,
    address: row.address,
    status: row.status,
    canResubmit: row.can_resubmit,
    reviewNotes: row.review_notes,
    submittedAt: row.created_at.toISOString(),
    reviewedAt: iso(row.reviewed_at),
    ...documentsOf(row),
  };
}

export function presentListItem(row: AdminKycRow): TAdminKycListItem {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    fullName: row.full_name,
    phoneNumber: row.phone_number,
    status: row.status,
    submittedAt: row.created_at.toISOString(),
  };
}

export function presentDetail(row: AdminKycRow): TAdminKycDetail {
  return {
    ...presentListItem(row),
    address: row.address,
    canResubmit: row.can_resubmit,
    reviewNotes: row.review_notes,
    reviewedAt: iso(row.reviewed_at),
    reviewer:
      row.reviewed_by && row.reviewer_email
        ? { id: row.reviewed_by, email: row.reviewer_email }
        : null,
    ...documentsOf(row),
  };
}

/** What the audit log keeps of a submission: its state, not the customer's identity data. */
export function auditFacts(row: KycRow) {
  return { status: row.status, canResubmit: row.can_resubmit, reviewedBy: row.reviewed_by };
}

/** The latest submission blocks the form unless it was rejected with `can_resubmit`. */
export function mayResubmit(row: KycRow | null): boolean {
  return row === null || (row.status === 'rejected' && row.can_resubmit);
}

export const alreadySubmitted = () => new AppError('CONFLICT', KYC_MSG.alreadySubmitted);

export async function readDocument(
  ctx: KycContext,
  row: KycRow,
  side: TKycSide,
): Promise<PrivateFile> {
  const key = side === 'front' ? row.front_document_key : row.back_document_key;
  const name = side === 'front' ? row.front_document_name : row.back_document_name;
  const mime = side === 'front' ? row.front_document_type : row.back_document_type;
  if (!key || !name || !mime) throw new AppError('NOT_FOUND', KYC_MSG.documentNotFound);
  const bytes = await ctx.files.get(key);
  if (!bytes) throw new AppError('NOT_FOUND', KYC_MSG.documentNotFound);
  return { bytes, mime, name };
}
