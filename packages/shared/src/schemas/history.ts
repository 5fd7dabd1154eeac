import { z } from 'zod';
import { ALL_ASSET_IDS } from '../assets';
import { ZTransaction, ZTransactionStatus, ZTransactionType } from './money';

/**
 * The customer's History: what its list and its CSV export may be narrowed to and sorted
 * by (the same query parameters for both, kept in the page's URL), and the cancellation of
 * a payout nobody has taken yet.
 */

export const HISTORY_MSG = {
  type: `Unknown transaction type. Choose one of: ${ZTransactionType.options.join(', ')}.`,
  asset: `Unknown asset. Choose one of: ${[...ALL_ASSET_IDS, 'AUD'].join(', ')}.`,
  status: 'Unknown status. Choose pending, completed or failed.',
  sort: 'Sort by date or by amount.',
  order: 'Order asc (oldest or smallest first) or desc (newest or largest first).',
  search: 'The search can be at most 100 characters.',
  limit: 'The page size must be a whole number from 1 to 100.',
  cursor: 'This page link is no longer valid. Reload the history.',
  bothCursors: 'Send either cursor (the page after) or before (the page before), not both.',
  /** What a cancelled payout's row says, for staff and in the CSV. */
  cancelledReason: 'Cancelled by the customer.',
  cancelNotFound: 'Withdrawal not found.',
  cancelTaken:
    'Coffer is already processing this request, so it can no longer be cancelled. Contact support if it should not be paid.',
  cancelStaffRecorded:
    "This request was recorded by Coffer's staff. Contact support if it should not be paid.",
  cancelCompleted: 'This request was already completed: it can no longer be cancelled.',
  cancelRejected: 'This request was already rejected: nothing is held for it any more.',
  cancelCancelled: 'This request was already cancelled: nothing is held for it any more.',
} as const;

/** The assets a history row may be in: the catalogue's, and AUD for older fiat-only rows. */
export const HISTORY_ASSETS = [...ALL_ASSET_IDS, 'AUD'] as const;

export const HISTORY_SORTS = ['date', 'amount'] as const;
export const HISTORY_ORDERS = ['desc', 'asc'] as const;

/** An empty parameter (`?type=`) reads as none: a form's "All" sends nothing or nothing much. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/**
 * The filters, search and sort: `GET /api/transactions` and `/api/transactions/export.csv`.
 * The search matches a transaction hash or a withdrawal address containing the text (any
 * case, the text taken literally), or, when it is a decimal number, an amount equal to it.
 */
export const ZHistoryFilters = z.object({
  type: optional(z.enum(ZTransactionType.options, { error: HISTORY_MSG.type })),
  asset: optional(z.enum(HISTORY_ASSETS, { error: HISTORY_MSG.asset })),
  status: optional(z.enum(ZTransactionStatus.options, { error: HISTORY_MSG.status })),
  q: optional(z.string({ error: HISTORY_MSG.search }).trim().max(100, HISTORY_MSG.search)),
  sort: z.enum(HISTORY_SORTS, { error: HISTORY_MSG.sort }).default('date'),
  order: z.enum(HISTORY_ORDERS, { error: HISTORY_MSG.order }).default('desc'),
});
export type THistoryFilters = z.infer<typeof ZHistoryFilters>;

/** A page: the filters, and where it starts (after `cursor`, or before `before`). */
export const ZTransactionsQuery = ZHistoryFilters.extend({
  /** Opaque keyset cursor: the page after this position (the previous page's nextCursor). */
  cursor: optional(z.string({ error: HISTORY_MSG.cursor }).max(200, HISTORY_MSG.cursor)),
  /** Opaque keyset cursor: the page before this position (a page's prevCursor). */
  before: optional(z.string({ error: HISTORY_MSG.cursor }).max(200, HISTORY_MSG.cursor)),
  limit: z.coerce
    .number({ error: HISTORY_MSG.limit })
    .int(HISTORY_MSG.limit)
    .min(1, HISTORY_MSG.limit)
    .max(100, HISTORY_MSG.limit)
    .default(25),
}).refine((q) => q.cursor === undefined || q.before === undefined, {
  error: HISTORY_MSG.bothCursors,
  path: ['before'],
});
export type TTransactionsQuery = z.infer<typeof ZTransactionsQuery>;

/** A page of the customer's history. */
export const ZTransactionsResponse = z.object({
  items: z.array(ZTransaction),
  /** The page after this one, or null at the end. */
  nextCursor: z.string().nullable(),
  /** The page before this one, or null on the first page. */
  prevCursor: z.string().nullable(),
  /** How many rows match the filters and search, over every page. */
  total: z.number().int(),
});
export type TTransactionsResponse = z.infer<typeof ZTransactionsResponse>;

/** GET /api/transactions/export.csv: the history as `ZHistoryFilters` narrow and sort it, as text/csv, sent as an attachment. */
export const ZTransactionsCsv = z.string();

/** POST /api/withdrawals/:id/cancel: a withdrawal's or a bank payout's ledger id. */
export const ZCancelPayoutParams = z.object({ id: z.string().max(100) });
