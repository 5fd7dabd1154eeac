import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

export const KYC_STATUSES = ['pending', 'approved', 'rejected'] as const;

/**
 * kyc_submissions, one per customer: a resubmission after a
 * rejection updates the same row. Documents are private stored files (product.md S5): the
 * `*_document_key` columns hold storage keys under `kyc-documents/{user id}/`, never URLs.
 */
export const kycSubmissions = pgTable(
  'kyc_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    phoneNumber: text('phone_number').notNull(),
    address: text('address').notNull(),
    status: text('status', { enum: KYC_STATUSES }).notNull().default('pending'),
    reviewNotes: text('review_notes'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    canResubmit: boolean('can_resubmit').notNull().default(false),
    frontDocumentKey: text('front_document_key').notNull(),
    frontDocumentName: text('front_document_name').notNull(),
    frontDocumentType: text('front_document_type').notNull(),
    backDocumentKey: text('back_document_key'),
    backDocumentName: text('back_document_name'),
    backDocumentType: text('back_document_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('kyc_submissions_user_key').on(t.userId),
    index('kyc_submissions_created_idx').on(t.createdAt.desc()),
    check('kyc_submissions_status', sql`${t.status} IN ('pending', 'approved', 'rejected')`),
  ],
);
