import {
  KYC_MSG,
  type TAdminKycDetail,
  type TAdminKycListQuery,
  type TAdminKycListResponse,
  type TKycSide,
  type TKycStatusResponse,
} from '@coffer/shared';
import { decodeKeyset, keysetPage } from '@server/db/keyset';
import { AppError } from '@server/lib/app-error';
import type { PrivateFile } from '@server/lib/private-file-reply';
import { type KycListFilters, kycRepository as repo } from './kyc.repository';
import {
  type KycActor,
  type KycContext,
  mayResubmit,
  presentDetail,
  presentListItem,
  presentOwn,
  readDocument,
  UUID,
} from './kyc-context';

/** The customer's own submission, and whether the form may be sent (again). */
export async function kycStatus(ctx: KycContext, userId: string): Promise<TKycStatusResponse> {
  const row = await repo.findByUser(ctx.pool, userId);
  return { submission: row ? presentOwn(row) : null, canSubmit: mayResubmit(row) };
}

/** The customer's own document; nobody else's can be named here. */
export async function ownDocument(
  ctx: KycContext,
  userId: string,
  side: TKycSide,
): Promise<PrivateFile> {
  const row = await repo.findByUser(ctx.pool, userId);
  if (!row) throw new AppError('NOT_FOUND', KYC_MSG.documentNotFound);
  return readDocument(ctx, row, side);
}

/** `%text%` for ILIKE with the text's own wildcards taken literally. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of the review queue, oldest first unless the newest are asked for. */
export async function listKyc(
  ctx: KycContext,
  query: TAdminKycListQuery,
): Promise<TAdminKycListResponse> {
  const at = decodeKeyset(query.cursor);
  const q = query.q.trim();
  const filters: KycListFilters = {
    status: query.status === 'all' ? null : query.status,
    pattern: q === '' ? null : likePattern(q),
  };
  const [rows, total] = await Promise.all([
    repo.adminPage(ctx.pool, filters, { order: query.order, at, limit: query.limit }),
    repo.adminCount(ctx.pool, filters),
  ]);
  const page = keysetPage(rows, query.limit, at);
  return {
    submissions: page.rows.map(presentListItem),
    nextCursor: page.nextCursor,
    prevCursor: page.prevCursor,
    total,
  };
}

export async function kycDetail(ctx: KycContext, id: string): Promise<TAdminKycDetail> {
  const row = UUID.test(id) ? await repo.findForAdmin(ctx.pool, id) : null;
  if (!row) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
  return presentDetail(row);
}

/**
 * An admin opens or downloads a document: the file is read, then the look is written
 * to the audit log (and committed) before a byte is sent.
 */
export async function adminDocument(
  ctx: KycContext,
  actor: KycActor,
  id: string,
  side: TKycSide,
): Promise<PrivateFile> {
  const row = UUID.test(id) ? await repo.findForAdmin(ctx.pool, id) : null;
  if (!row) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
  const file = await readDocument(ctx, row, side);
  await ctx.audit.recordAlone(ctx.pool, {
    actorId: actor.adminId,
    action: 'kyc.document.view',
    targetType: 'kyc_submission',
    targetId: row.id,
    targetUserId: row.user_id,
    after: { side, name: file.name, type: file.mime },
    ip: actor.ip,
  });
  return file;
}
