import { z } from 'zod';
import { ZStepUp } from './step-up';

/** Identity verification. */

export const KYC_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const ZKycStatus = z.enum(KYC_STATUSES);
export type TKycStatus = z.infer<typeof ZKycStatus>;

export const KYC_SIDES = ['front', 'back'] as const;
export const ZKycSide = z.enum(KYC_SIDES);
export type TKycSide = z.infer<typeof ZKycSide>;

/** Documents: JPEG, PNG or PDF, checked by content on the server, at most 10 MB each. */
export const KYC_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const KYC_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
/** The form's fields in a multipart body. */
export const KYC_FIELDS = {
  fullName: 'fullName',
  phoneNumber: 'phoneNumber',
  address: 'address',
  front: 'front',
  back: 'back',
} as const;
export const KYC_LIMITS = { fullName: 200, phoneNumber: 40, address: 1000, notes: 2000 } as const;
/** Redirect to /dashboard this long after a successful submission. */
export const KYC_REDIRECT_MS = 3000;

/** The spec's texts. */
export const KYC_MSG = {
  validationTitle: 'Validation Error',
  fullNameRequired: 'Please enter your full name.',
  phoneRequired: 'Please enter your phone number.',
  addressRequired: 'Please enter your address.',
  frontRequired: 'Please upload the front of your ID document.',
  invalidTypeTitle: 'Invalid file type',
  invalidType: 'Please upload JPEG, PNG, or PDF files only.',
  tooLargeTitle: 'File too large',
  tooLarge: 'Please upload files smaller than 10MB.',
  authTitle: 'Authentication Error',
  authRequired: 'You must be logged in to submit KYC.',
  submitErrorTitle: 'Submission Error',
  submitError: (reason: string) =>
    `There was an error submitting your KYC: ${reason}. Please try again.`,
  successTitle: 'KYC Submitted Successfully',
  success: 'Thank you for submitting your KYC. We will review it shortly.',
  alreadySubmitted: 'KYC Already Submitted',
  // Coffer's own texts where the spec gives none.
  tooLong: (field: string, max: number) => `Your ${field} must be at most ${max} characters.`,
  phoneInvalid:
    'Please enter a phone number of 6 to 20 digits; only spaces, +, - and brackets may go between them.',
  emptyFile: 'The file is empty. Please choose your document again.',
  activePdf:
    'This PDF contains scripts or automatic actions. Please upload a plain PDF or a photo.',
  damagedImage: 'The image could not be read. Please upload it again.',
  notFound: 'KYC submission not found.',
  documentNotFound: 'Document not found.',
  notPending: 'This KYC submission has already been reviewed.',
  // Admin screen.
  loadFailed: 'Failed to load KYC submissions.',
  updateFailed: 'Failed to update KYC status.',
  downloadErrorTitle: 'Download Error',
  downloadFailed: 'Failed to download document.',
  statusUpdated: 'Status Updated',
  approved: 'KYC submission has been approved',
  rejected: 'KYC submission has been rejected. User can now resubmit.',
  emptyList: 'No KYC Submissions',
} as const;

/** How many digits a phone number has, in any country's format (E.164 allows 15; extensions more). */
export const KYC_PHONE_DIGITS = { min: 6, max: 20 } as const;

/**
 * The phone number of a KYC submission: digits with the spaces, `+`, `-` and brackets people
 * write between them, and 6 to 20 digits in all. Letters, dots or slashes are refused, so
 * staff never read a note or a link where a number belongs. The form and the server check
 * the same.
 */
export const ZKycPhoneNumber = z
  .string()
  .trim()
  .min(1, KYC_MSG.phoneRequired)
  .max(KYC_LIMITS.phoneNumber, KYC_MSG.tooLong('phone number', KYC_LIMITS.phoneNumber))
  .refine((phone) => {
    if (!/^[0-9+\-() ]+$/.test(phone)) return false;
    const digits = phone.replace(/\D/g, '').length;
    return digits >= KYC_PHONE_DIGITS.min && digits <= KYC_PHONE_DIGITS.max;
  }, KYC_MSG.phoneInvalid);

/**
 * The toast title for a refused submission: the form's own checks keep their titles;
 * anything else is a 'Submission Error'.
 */
export function kycErrorTitle(message: string): string {
  if (message === KYC_MSG.invalidType) return KYC_MSG.invalidTypeTitle;
  if (message === KYC_MSG.tooLarge) return KYC_MSG.tooLargeTitle;
  if (message === KYC_MSG.authRequired) return KYC_MSG.authTitle;
  if (message === KYC_MSG.alreadySubmitted) return KYC_MSG.alreadySubmitted;
  const validation: string[] = [
    KYC_MSG.fullNameRequired,
    KYC_MSG.phoneRequired,
    KYC_MSG.phoneInvalid,
    KYC_MSG.addressRequired,
    KYC_MSG.frontRequired,
  ];
  if (validation.includes(message)) return KYC_MSG.validationTitle;
  return KYC_MSG.submitErrorTitle;
}

/** A stored document as the API describes it (the file itself is fetched separately). */
export const ZKycDocument = z.object({
  name: z.string(),
  /** The type detected from the content: image/jpeg, image/png or application/pdf. */
  type: z.string(),
});
export type TKycDocument = z.infer<typeof ZKycDocument>;

/** The customer's own submission. */
export const ZKycSubmission = z.object({
  id: z.uuid(),
  fullName: z.string(),
  phoneNumber: z.string(),
  address: z.string(),
  status: ZKycStatus,
  canResubmit: z.boolean(),
  reviewNotes: z.string().nullable(),
  /** When the submission the row holds was made (a resubmission renews it). */
  submittedAt: z.iso.datetime(),
  reviewedAt: z.iso.datetime().nullable(),
  front: ZKycDocument,
  back: ZKycDocument.nullable(),
});
export type TKycSubmission = z.infer<typeof ZKycSubmission>;

/** `GET /api/kyc`: the latest submission, and whether the form may be (re)filled. */
export const ZKycStatusResponse = z.object({
  submission: ZKycSubmission.nullable(),
  canSubmit: z.boolean(),
});
export type TKycStatusResponse = z.infer<typeof ZKycStatusResponse>;

export const ZKycSubmissionResponse = z.object({ submission: ZKycSubmission });
export type TKycSubmissionResponse = z.infer<typeof ZKycSubmissionResponse>;

export const ZKycSideParams = z.object({ side: ZKycSide });

/** Admin list row. */
export const ZAdminKycListItem = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  email: z.string(),
  fullName: z.string(),
  phoneNumber: z.string(),
  status: ZKycStatus,
  submittedAt: z.iso.datetime(),
});
export type TAdminKycListItem = z.infer<typeof ZAdminKycListItem>;

/** Admin review details. */
export const ZAdminKycDetail = ZAdminKycListItem.extend({
  address: z.string(),
  canResubmit: z.boolean(),
  reviewNotes: z.string().nullable(),
  reviewedAt: z.iso.datetime().nullable(),
  reviewer: z.object({ id: z.uuid(), email: z.string() }).nullable(),
  front: ZKycDocument,
  back: ZKycDocument.nullable(),
});
export type TAdminKycDetail = z.infer<typeof ZAdminKycDetail>;

export const ZAdminKycDetailResponse = z.object({ submission: ZAdminKycDetail });
export type TAdminKycDetailResponse = z.infer<typeof ZAdminKycDetailResponse>;

export const ZAdminKycIdParams = z.object({ id: z.uuid({ message: KYC_MSG.notFound }) });
export const ZAdminKycDocumentParams = ZAdminKycIdParams.extend({ side: ZKycSide });

/**
 * Approve or reject a pending submission; notes are optional. A staff write, so the
 * reviewer's fresh second factor (step-up) comes with it.
 */
export const ZAdminKycReviewRequest = z.object({
  stepUp: ZStepUp,
  decision: z.enum(['approved', 'rejected']),
  notes: z
    .string()
    .trim()
    .max(KYC_LIMITS.notes, { message: `Notes must be at most ${KYC_LIMITS.notes} characters.` })
    .optional(),
});
export type TAdminKycReviewRequest = z.infer<typeof ZAdminKycReviewRequest>;
