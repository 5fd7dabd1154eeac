import { randomInt } from 'node:crypto';
import {
  KYC_LIMITS,
  KYC_MSG,
  type TAdminKycDetail,
  type TAdminKycListItem,
  type TKycSide,
  type TKycStatusResponse,
  type TKycSubmission,
} from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { type SniffedType, type SniffReason, sniff } from '@server/lib/file-sniff';
import type { FileStore } from '@server/lib/file-store';
import { type PrivateFile, withoutInvisibleCharacters } from '@server/lib/private-file-reply';
import { InvalidImageError, stripImageMetadata } from '@server/lib/strip-image-metadata';
import type { UploadedFile } from '@server/plugins/uploads';
import type pg from 'pg';
import type { AuditLog } from '../audit';
import type { Outbox } from '../outbox';
import { LIMITS, type RateLimiter } from '../rate-limit';
import type { RealtimeHub } from '../realtime';
import {
  type AdminKycRow,
  type KycDocuments,
  type KycFields,
  type KycRow,
  kycRepository as repo,
} from './kyc.repository';

/** Identity documents: photos or scans. */
const KYC_TYPES: readonly SniffedType[] = ['image/jpeg', 'image/png', 'application/pdf'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Deps = {
  pool: pg.Pool;
  files: FileStore;
  audit: AuditLog;
  realtime: RealtimeHub;
  outbox: Outbox;
  limiter: RateLimiter;
  publicUrl: string;
};

/** Who acted and from where, for the audit row. */
export type KycActor = { adminId: string; ip: string | null };

export type KycSubmissionInput = { fields: Record<string, string>; files: UploadedFile[] };

type CheckedFile = { name: string; mime: SniffedType; bytes: Buffer };

/** A file name for a storage key: ASCII letters, digits, dot, dash and underscore only. */
export function safeKeyName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(-100);
  return cleaned === '' ? 'document' : cleaned;
}

/**
 * A name to show: the customer's, trimmed and without folders, control characters or
 * invisible ones that reorder what staff read (a right-to-left override).
 */
function displayName(name: string): string {
  const base = withoutInvisibleCharacters(name.split(/[\\/]/).pop() ?? '').trim();
  return [...base].slice(0, 200).join('') || 'document';
}

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

function presentOwn(row: KycRow): TKycSubmission {
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

function presentListItem(row: AdminKycRow): TAdminKycListItem {
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

function presentDetail(row: AdminKycRow): TAdminKycDetail {
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
function auditFacts(row: KycRow) {
  return { status: row.status, canResubmit: row.can_resubmit, reviewedBy: row.reviewed_by };
}

/** The latest submission blocks the form unless it was rejected with `can_resubmit`. */
function mayResubmit(row: KycRow | null): boolean {
  return row === null || (row.status === 'rejected' && row.can_resubmit);
}

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);

/** The text fields in the form's order, trimmed. */
function checkFields(fields: Record<string, string>, files: UploadedFile[]): KycFields {
  const fullName = (fields.fullName ?? '').trim();
  const phoneNumber = (fields.phoneNumber ?? '').trim();
  const address = (fields.address ?? '').trim();
  if (fullName === '') throw invalid(KYC_MSG.fullNameRequired);
  if (phoneNumber === '') throw invalid(KYC_MSG.phoneRequired);
  if (address === '') throw invalid(KYC_MSG.addressRequired);
  if (!fileOf(files, 'front')) throw invalid(KYC_MSG.frontRequired);
  if (fullName.length > KYC_LIMITS.fullName) {
    throw invalid(KYC_MSG.tooLong('full name', KYC_LIMITS.fullName));
  }
  if (phoneNumber.length > KYC_LIMITS.phoneNumber) {
    throw invalid(KYC_MSG.tooLong('phone number', KYC_LIMITS.phoneNumber));
  }
  if (address.length > KYC_LIMITS.address) {
    throw invalid(KYC_MSG.tooLong('address', KYC_LIMITS.address));
  }
  return { fullName, phoneNumber, address };
}

/** A browser sends an empty, nameless part for a file input left empty: that is no file. */
function fileOf(files: UploadedFile[], field: TKycSide): UploadedFile | undefined {
  return files.find((f) => f.field === field && !(f.filename === '' && f.bytes.length === 0));
}

/** The form's own texts for the refusals it names; the checker's message for the rest. */
const KYC_REFUSALS: Partial<Record<SniffReason, string>> = {
  empty: KYC_MSG.emptyFile,
  active_content: KYC_MSG.activePdf,
  too_large: KYC_MSG.tooLarge,
  type: KYC_MSG.invalidType,
  damaged_image: KYC_MSG.damagedImage,
};

/**
 * Type by content first, then size (the form's order), then what is inside (a PDF's
 * scripts, an image's size in pixels); images lose their metadata here, before anything
 * is stored. A file cut at the size limit is only typed, never parsed.
 */
async function checkFile(file: UploadedFile): Promise<CheckedFile> {
  const found = await sniff(file.bytes, KYC_TYPES, { typeOnly: file.tooLarge });
  if (!found.ok) {
    if (found.reason === 'busy') throw new AppError('RATE_LIMITED', found.message, 30);
    throw invalid(KYC_REFUSALS[found.reason] ?? found.message);
  }
  if (file.tooLarge) throw invalid(KYC_MSG.tooLarge);
  let bytes = file.bytes;
  try {
    bytes = stripImageMetadata(file.bytes, found.mime);
  } catch (err) {
    if (err instanceof InvalidImageError) throw invalid(KYC_MSG.damagedImage);
    throw err;
  }
  return { name: displayName(file.filename), mime: found.mime, bytes };
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}

/**
 * Identity verification. One row per customer;
 * documents are private files under `kyc-documents/{user id}/` (product.md S5). Every
 * admin look at a document and every decision is written to the audit log.
 */
export function createKycService(deps: Deps) {
  const alreadySubmitted = () => new AppError('CONFLICT', KYC_MSG.alreadySubmitted);

  /** The decision mail, queued in the decision's transaction. */
  async function tell(client: TxClient, row: KycRow, notes: string | null): Promise<void> {
    const to = await repo.emailOf(client, row.user_id);
    if (!to) return;
    const link = `${deps.publicUrl}/kyc`;
    if (row.status === 'approved') {
      await deps.outbox.mail(client, {
        to,
        subject: 'Your identity verification was approved',
        text: [
          'Your identity verification (KYC) has been approved.',
          '',
          ...(notes ? [`Notes from our team: ${notes}`, ''] : []),
          `Your verification status: ${link}`,
        ].join('\n'),
      });
      return;
    }
    await deps.outbox.mail(client, {
      to,
      subject: 'Your identity verification was not approved',
      text: [
        'Your identity verification (KYC) was not approved.',
        '',
        `Reason: ${notes ?? 'No reason was given.'}`,
        '',
        `You can submit your details and documents again here: ${link}`,
      ].join('\n'),
    });
  }

  async function readDocument(row: KycRow, side: TKycSide): Promise<PrivateFile> {
    const key = side === 'front' ? row.front_document_key : row.back_document_key;
    const name = side === 'front' ? row.front_document_name : row.back_document_name;
    const mime = side === 'front' ? row.front_document_type : row.back_document_type;
    if (!key || !name || !mime) throw new AppError('NOT_FOUND', KYC_MSG.documentNotFound);
    const bytes = await deps.files.get(key);
    if (!bytes) throw new AppError('NOT_FOUND', KYC_MSG.documentNotFound);
    return { bytes, mime, name };
  }

  return {
    async status(userId: string): Promise<TKycStatusResponse> {
      const row = await repo.findByUser(deps.pool, userId);
      return { submission: row ? presentOwn(row) : null, canSubmit: mayResubmit(row) };
    },

    /**
     * A new submission, or the resubmission of a rejected one. Everything
     * is checked before anything is stored; files are written first, then the row, so a
     * committed row never names a missing file. If the row cannot be written the new files
     * are removed again; if the server dies before that, the file sweep removes them. The
     * documents a resubmission replaces are removed through the outbox, queued in the same
     * transaction: only once it commits, and even if the server stops right after.
     */
    async submit(userId: string, input: KycSubmissionInput): Promise<TKycSubmission> {
      // Every file sent counts, before anything is checked or stored.
      const sent = input.files.filter((f) => !(f.filename === '' && f.bytes.length === 0));
      await deps.limiter.consume(LIMITS.upload(userId), sent.length);
      const fields = checkFields(input.fields, input.files);
      const frontFile = fileOf(input.files, 'front') as UploadedFile;
      const backFile = fileOf(input.files, 'back');
      const front = await checkFile(frontFile);
      const back = backFile ? await checkFile(backFile) : null;
      if (!mayResubmit(await repo.findByUser(deps.pool, userId))) throw alreadySubmitted();

      // Random digits after the time: two submissions in the same millisecond must never
      // share a key, or the one that loses would remove the winner's document.
      const stamp = `${Date.now()}${randomInt(1e9).toString().padStart(9, '0')}`;
      const keyOf = (side: TKycSide, file: CheckedFile) =>
        `kyc-documents/${userId}/${side}-${stamp}-${safeKeyName(file.name)}`;
      const docs: KycDocuments = {
        frontKey: keyOf('front', front),
        frontName: front.name,
        frontType: front.mime,
        backKey: back ? keyOf('back', back) : null,
        backName: back?.name ?? null,
        backType: back?.mime ?? null,
      };
      const newKeys = [docs.frontKey, docs.backKey].filter((k): k is string => k !== null);
      const removeNew = () => Promise.all(newKeys.map((k) => deps.files.delete(k)));

      let saved: KycRow;
      try {
        await deps.files.put(docs.frontKey, front.bytes);
        if (back && docs.backKey) await deps.files.put(docs.backKey, back.bytes);
        saved = await withTransaction(deps.pool, async (client) => {
          const previous = await repo.findByUser(client, userId, true);
          if (!mayResubmit(previous)) throw alreadySubmitted();
          const row = previous
            ? await repo.resubmit(client, previous.id, fields, docs)
            : await repo.insert(client, userId, fields, docs);
          if (previous) {
            // The rejected documents are replaced (never the new ones, should a key repeat).
            const replaced = [previous.front_document_key, previous.back_document_key].filter(
              (k): k is string => k !== null && !newKeys.includes(k),
            );
            await deps.outbox.deleteFiles(client, { keys: replaced });
          }
          await deps.realtime.publish(client, {
            type: 'kyc.changed',
            userId,
            submissionId: row.id,
          });
          return row;
        });
      } catch (err) {
        await removeNew().catch(() => {});
        // Two first submissions at once: the one-per-customer index lets one through.
        if (isUniqueViolation(err)) throw alreadySubmitted();
        throw err;
      }
      await deps.outbox.deliver();
      return presentOwn(saved);
    },

    /** The customer's own document; nobody else's can be named here. */
    async ownDocument(userId: string, side: TKycSide): Promise<PrivateFile> {
      const row = await repo.findByUser(deps.pool, userId);
      if (!row) throw new AppError('NOT_FOUND', KYC_MSG.documentNotFound);
      return readDocument(row, side);
    },

    async list(): Promise<TAdminKycListItem[]> {
      return (await repo.listForAdmin(deps.pool)).map(presentListItem);
    },

    async detail(id: string): Promise<TAdminKycDetail> {
      const row = UUID.test(id) ? await repo.findForAdmin(deps.pool, id) : null;
      if (!row) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
      return presentDetail(row);
    },

    /**
     * An admin opens or downloads a document: the file is read, then the look is written
     * to the audit log (and committed) before a byte is sent.
     */
    async adminDocument(actor: KycActor, id: string, side: TKycSide): Promise<PrivateFile> {
      const row = UUID.test(id) ? await repo.findForAdmin(deps.pool, id) : null;
      if (!row) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
      const file = await readDocument(row, side);
      await withTransaction(deps.pool, (client) =>
        deps.audit.record(client, {
          actorId: actor.adminId,
          action: 'kyc.document.view',
          targetType: 'kyc_submission',
          targetId: row.id,
          targetUserId: row.user_id,
          after: { side, name: file.name, type: file.mime },
          ip: actor.ip,
        }),
      );
      return file;
    },

    /**
     * Approve or reject a pending submission: rejection lets the customer
     * resubmit; the reviewer and time are kept; the customer is told by e-mail.
     */
    async review(
      actor: KycActor,
      id: string,
      input: { decision: 'approved' | 'rejected'; notes?: string | undefined },
    ): Promise<TAdminKycDetail> {
      const notes = input.notes?.trim() ? input.notes.trim() : null;
      const after = await withTransaction(deps.pool, async (client) => {
        const before = UUID.test(id) ? await repo.lockById(client, id) : null;
        if (!before) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
        if (before.status !== 'pending') throw new AppError('CONFLICT', KYC_MSG.notPending);
        const row = await repo.review(client, before.id, {
          status: input.decision,
          notes,
          reviewerId: actor.adminId,
        });
        await deps.realtime.publish(client, {
          type: 'kyc.changed',
          userId: row.user_id,
          submissionId: row.id,
        });
        await tell(client, row, notes);
        await deps.audit.record(client, {
          actorId: actor.adminId,
          action: input.decision === 'approved' ? 'kyc.approve' : 'kyc.reject',
          targetType: 'kyc_submission',
          targetId: row.id,
          targetUserId: row.user_id,
          before: auditFacts(before),
          after: auditFacts(row),
          reason: notes,
          ip: actor.ip,
        });
        return row;
      });
      await deps.outbox.deliver();
      const full = await repo.findForAdmin(deps.pool, after.id);
      if (!full) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
      return presentDetail(full);
    },
  };
}

export type KycService = ReturnType<typeof createKycService>;
