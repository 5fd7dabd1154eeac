import { randomInt } from 'node:crypto';
import type { TKycSide, TKycSubmission } from '@coffer/shared';
import { withTransaction } from '@server/db/tx';
import type { UploadedFile } from '@server/plugins/uploads';
import { LIMITS } from '../rate-limit';
import { type KycDocuments, type KycRow, kycRepository as repo } from './kyc.repository';
import {
  alreadySubmitted,
  type KycContext,
  type KycSubmissionInput,
  mayResubmit,
  presentOwn,
} from './kyc-context';
import { type CheckedFile, checkFields, checkFile, fileOf, safeKeyName } from './submission-checks';

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === '23505';
}

/**
 * A new submission, or the resubmission of a rejected one. Everything
 * is checked before anything is stored; files are written first, then the row, so a
 * committed row never names a missing file. If the row cannot be written the new files
 * are removed again; if the server dies before that, the file sweep removes them. The
 * documents a resubmission replaces are removed through the outbox, queued in the same
 * transaction: only once it commits, and even if the server stops right after.
 */
export async function submitKyc(
  ctx: KycContext,
  userId: string,
  input: KycSubmissionInput,
): Promise<TKycSubmission> {
  // Every file sent counts, before anything is checked or stored.
  const sent = input.files.filter((f) => !(f.filename === '' && f.bytes.length === 0));
  await ctx.limiter.consume(LIMITS.upload(userId), sent.length);
  const fields = checkFields(input.fields, input.files);
  const frontFile = fileOf(input.files, 'front') as UploadedFile;
  const backFile = fileOf(input.files, 'back');
  const front = await checkFile(frontFile);
  const back = backFile ? await checkFile(backFile) : null;
  if (!mayResubmit(await repo.findByUser(ctx.pool, userId))) throw alreadySubmitted();

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
  const removeNew = () => Promise.all(newKeys.map((k) => ctx.files.delete(k)));

  let saved: KycRow;
  try {
    await ctx.files.put(docs.frontKey, front.bytes);
    if (back && docs.backKey) await ctx.files.put(docs.backKey, back.bytes);
    saved = await withTransaction(ctx.pool, async (client) => {
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
        await ctx.outbox.deleteFiles(client, { keys: replaced });
      }
      await ctx.realtime.publish(client, {
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
  await ctx.outbox.deliver();
  return presentOwn(saved);
}
