import { z } from 'zod';
import { ALL_ASSET_IDS } from '../assets';
import { ZAdminTransaction } from './admin-transactions';
import { KYC_STATUSES, ZAdminKycListItem } from './kyc';

/**
 * The back office's work queues (Pending withdrawals, KYC review): pages read by keyset,
 * oldest first unless staff ask for the newest, searched and filtered on the server.
 */

export const QUEUE_ORDERS = ['oldest', 'newest'] as const;
export type TQueueOrder = (typeof QUEUE_ORDERS)[number];
export const QUEUE_PAGE_SIZE = 25;
export const QUEUE_CURSOR_INVALID = 'This page link is no longer valid. Go back to the first page.';

const ZQueueOrder = z.enum(QUEUE_ORDERS, { error: 'Sort by oldest or newest.' }).default('oldest');

/**
 * Where a page starts: opaque to clients (base64url, made by the server). Its content is
 * checked by the server; here only its shape, so a mangled link is a 400 with one message.
 */
const ZQueueCursor = z
  .string()
  .max(200, QUEUE_CURSOR_INVALID)
  .regex(/^[A-Za-z0-9_-]+$/, QUEUE_CURSOR_INVALID)
  .optional();

const ZQueueLimit = z.coerce
  .number({ error: 'The page size must be a number from 1 to 100.' })
  .int('The page size must be a number from 1 to 100.')
  .min(1, 'The page size must be a number from 1 to 100.')
  .max(100, 'The page size must be a number from 1 to 100.')
  .default(QUEUE_PAGE_SIZE);

const ZQueueSearch = z
  .string()
  .trim()
  .max(200, 'Keep the search under 200 characters.')
  .default('');

/** What every queue page says besides its rows. */
export const ZQueuePageInfo = z.object({
  /** The next page (further along the chosen order), or null at the end. */
  nextCursor: z.string().nullable(),
  /** The page before this one, or null on the first page. */
  prevCursor: z.string().nullable(),
  /** How many rows match the search and filters, on every page. */
  total: z.number().int(),
});
export type TQueuePageInfo = z.infer<typeof ZQueuePageInfo>;

export const PENDING_PAYOUT_TYPES = ['withdrawal', 'bank_transfer'] as const;
/**
 * A crypto withdrawal waits for a second admin's approval before it is paid; a bank payout
 * needs none, so either approval filter shows crypto withdrawals only.
 */
export const PAYOUT_APPROVALS = ['waiting', 'approved'] as const;

/** `GET /api/admin/withdrawals/pending`: search, filters and the page. */
export const ZPendingPayoutsQuery = z.object({
  /** The customer's e-mail, a destination address (parts of either), or an exact amount. */
  q: ZQueueSearch,
  asset: z
    .union([z.literal('all'), z.enum(ALL_ASSET_IDS)], { error: 'Choose an asset from the list.' })
    .default('all'),
  type: z
    .enum(['all', ...PENDING_PAYOUT_TYPES], {
      error: 'Choose crypto withdrawals, bank payouts or all.',
    })
    .default('all'),
  approval: z
    .enum(['all', ...PAYOUT_APPROVALS], { error: 'Choose approved, waiting or all.' })
    .default('all'),
  order: ZQueueOrder,
  cursor: ZQueueCursor,
  limit: ZQueueLimit,
});
export type TPendingPayoutsQuery = z.infer<typeof ZPendingPayoutsQuery>;

/**
 * `GET /api/admin/kyc`: search, the status filter and the page. The queue shows what waits
 * for review unless staff ask for decided submissions too.
 */
export const ZAdminKycListQuery = z.object({
  /** The customer's name or e-mail (a part of either). */
  q: ZQueueSearch,
  status: z
    .union([z.literal('all'), z.enum(KYC_STATUSES)], {
      error: 'Choose pending, approved, rejected or all.',
    })
    .default('pending'),
  order: ZQueueOrder,
  cursor: ZQueueCursor,
  limit: ZQueueLimit,
});
export type TAdminKycListQuery = z.infer<typeof ZAdminKycListQuery>;

/** A page of the Pending withdrawals queue. */
export const ZPendingPayoutsResponse = ZQueuePageInfo.extend({
  items: z.array(ZAdminTransaction),
});
export type TPendingPayoutsResponse = z.infer<typeof ZPendingPayoutsResponse>;

/** A page of the KYC review queue. */
export const ZAdminKycListResponse = ZQueuePageInfo.extend({
  submissions: z.array(ZAdminKycListItem),
});
export type TAdminKycListResponse = z.infer<typeof ZAdminKycListResponse>;
