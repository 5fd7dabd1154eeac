import { KYC_MSG, type TAdminKycDetail, type TStepUp } from '@coffer/shared';
import { type TxClient, withTransaction } from '@server/db/tx';
import { AppError } from '@server/lib/app-error';
import { type KycRow, kycRepository as repo } from './kyc.repository';
import { auditFacts, type KycContext, type KycReviewer, presentDetail, UUID } from './kyc-context';

/** The decision mail, queued in the decision's transaction. */
async function tell(
  ctx: KycContext,
  client: TxClient,
  row: KycRow,
  notes: string | null,
): Promise<void> {
  const to = await repo.emailOf(client, row.user_id);
  if (!to) return;
  const link = `${ctx.publicUrl}/kyc`;
  if (row.status === 'approved') {
    await ctx.outbox.mail(client, {
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
  await ctx.outbox.mail(client, {
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

/**
 * Approve or reject a pending submission: rejection lets the customer
 * resubmit; the reviewer and time are kept; the customer is told by e-mail.
 */
export async function reviewKyc(
  ctx: KycContext,
  actor: KycReviewer,
  id: string,
  input: { decision: 'approved' | 'rejected'; notes?: string | undefined; stepUp: TStepUp },
): Promise<TAdminKycDetail> {
  const notes = input.notes?.trim() ? input.notes.trim() : null;
  const after = await withTransaction(ctx.pool, async (client) => {
    const before = UUID.test(id) ? await repo.lockById(client, id) : null;
    if (!before) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
    if (before.status !== 'pending') throw new AppError('CONFLICT', KYC_MSG.notPending);
    const row = await repo.review(client, before.id, {
      status: input.decision,
      notes,
      reviewerId: actor.adminId,
    });
    await ctx.realtime.publish(client, {
      type: 'kyc.changed',
      userId: row.user_id,
      submissionId: row.id,
    });
    await tell(ctx, client, row, notes);
    // After every other check, so a refused decision never costs the reviewer a code.
    await ctx.stepUp.confirm(client, actor.session, input.stepUp, actor.client);
    await ctx.audit.record(client, {
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
  await ctx.outbox.deliver();
  const full = await repo.findForAdmin(ctx.pool, after.id);
  if (!full) throw new AppError('NOT_FOUND', KYC_MSG.notFound);
  return presentDetail(full);
}
