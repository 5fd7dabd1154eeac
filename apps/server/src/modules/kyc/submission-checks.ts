import {
  KYC_LIMITS,
  KYC_MSG,
  type TKycSide,
  withoutInvisibleCharacters,
  ZKycPhoneNumber,
} from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import { type SniffedType, type SniffReason, sniff } from '@server/lib/file-sniff';
import { InvalidImageError, stripImageMetadata } from '@server/lib/strip-image-metadata';
import type { UploadedFile } from '@server/plugins/uploads';
import type { KycFields } from './kyc.repository';

/**
 * The checks of a submission before anything is stored: the form's text fields, and each
 * document by its content, with image metadata stripped.
 */

/** Identity documents: photos or scans. */
const KYC_TYPES: readonly SniffedType[] = ['image/jpeg', 'image/png', 'application/pdf'];

export type CheckedFile = { name: string; mime: SniffedType; bytes: Buffer };

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

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);

/** The text fields in the form's order, trimmed. */
export function checkFields(fields: Record<string, string>, files: UploadedFile[]): KycFields {
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
  const phone = ZKycPhoneNumber.safeParse(phoneNumber);
  if (!phone.success) throw invalid(phone.error.issues[0]?.message ?? KYC_MSG.phoneInvalid);
  if (address.length > KYC_LIMITS.address) {
    throw invalid(KYC_MSG.tooLong('address', KYC_LIMITS.address));
  }
  return { fullName, phoneNumber, address };
}

/** A browser sends an empty, nameless part for a file input left empty: that is no file. */
export function fileOf(files: UploadedFile[], field: TKycSide): UploadedFile | undefined {
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
export async function checkFile(file: UploadedFile): Promise<CheckedFile> {
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
