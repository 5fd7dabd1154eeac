import type { TAdminKycListQuery, TKycSide, TStepUp } from '@coffer/shared';
import type { KycActor, KycContext, KycReviewer, KycSubmissionInput } from './kyc-context';
import { adminDocument, kycDetail, kycStatus, listKyc, ownDocument } from './read-kyc';
import { reviewKyc } from './review-kyc';
import { submitKyc } from './submit-kyc';

/**
 * Identity verification, composed: reading submissions and documents, submitting and the
 * admin review are each their own file taking the shared context (`kyc-context.ts`); the
 * checks of a submission's fields and files are in `submission-checks.ts`. One row per
 * customer; documents are private files under `kyc-documents/{user id}/` (product.md S5).
 * Every admin look at a document and every decision is written to the audit log; a
 * decision takes the reviewer's step-up.
 */

export type { KycActor, KycReviewer, KycSubmissionInput } from './kyc-context';
export { safeKeyName } from './submission-checks';

export function createKycService(ctx: KycContext) {
  return {
    status: (userId: string) => kycStatus(ctx, userId),

    submit: (userId: string, input: KycSubmissionInput) => submitKyc(ctx, userId, input),

    ownDocument: (userId: string, side: TKycSide) => ownDocument(ctx, userId, side),

    list: (query: TAdminKycListQuery) => listKyc(ctx, query),

    detail: (id: string) => kycDetail(ctx, id),

    adminDocument: (actor: KycActor, id: string, side: TKycSide) =>
      adminDocument(ctx, actor, id, side),

    review: (
      actor: KycReviewer,
      id: string,
      input: { decision: 'approved' | 'rejected'; notes?: string | undefined; stepUp: TStepUp },
    ) => reviewKyc(ctx, actor, id, input),
  };
}

export type KycService = ReturnType<typeof createKycService>;
