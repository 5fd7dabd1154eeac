import { z } from 'zod';
import { ZAdminCurrency } from './admin-transaction-form';
import { ADMIN_TX_MSG } from './admin-transactions-messages';
import { DAY_RANGE_BACKWARDS, dayRangeInOrder, ZOptionalDay } from './days';
import { ZTransactionStatus, ZTransactionType } from './money';
import { ZPayoutState } from './payouts';
import { ZStepUp } from './step-up';

/**
 * The admin Transactions screen and withdrawal processing: the list, one transaction, and
 * completing or rejecting a payout. The texts are in admin-transactions-messages.ts, the Add
 * and Edit dialogs' fields and checks in admin-transaction-form.ts.
 */

export * from './admin-transaction-form';
export * from './admin-transactions-messages';

// ---------------------------------------------------------------- list

const ZAllOr = <T extends z.ZodEnum>(e: T) => z.union([z.literal('all'), e]).default('all');

const ADMIN_TRANSACTIONS_FILTERS = {
  q: z.string().trim().max(200).default(''),
  status: ZAllOr(ZTransactionStatus),
  type: ZAllOr(ZTransactionType),
  currency: ZAllOr(ZAdminCurrency),
  /** From this calendar day (UTC) inclusive, or '' for no bound. */
  from: ZOptionalDay,
  /** Up to this calendar day (UTC) inclusive, or '' for no bound. */
  to: ZOptionalDay,
};

/** The list's search and filters, which its CSV export follows too. */
export const ZAdminTransactionsFilters = z
  .object(ADMIN_TRANSACTIONS_FILTERS)
  .refine(dayRangeInOrder, { message: DAY_RANGE_BACKWARDS, path: ['from'] });
export type TAdminTransactionsFilters = z.infer<typeof ZAdminTransactionsFilters>;

export const ZAdminTransactionsQuery = z
  .object({
    ...ADMIN_TRANSACTIONS_FILTERS,
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(25),
  })
  .refine(dayRangeInOrder, { message: DAY_RANGE_BACKWARDS, path: ['from'] });
export type TAdminTransactionsQuery = z.input<typeof ZAdminTransactionsQuery>;

/** The CSV export of the list: its text, streamed. */
export const ZAdminTransactionsCsv = z.string();

export const ZAdminCustomer = z.object({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
});
export type TAdminCustomer = z.infer<typeof ZAdminCustomer>;

export const ZAdminBankTransfer = z.object({
  accountName: z.string(),
  accountNumber: z.string(),
  bsbNumber: z.string(),
  amountFiat: z.string(),
  currency: z.string(),
});

export const ZAdminTransaction = z.object({
  id: z.string(),
  customer: ZAdminCustomer,
  type: ZTransactionType,
  direction: z.enum(['credit', 'debit', 'none']),
  assetId: z.string(),
  symbol: z.string(),
  network: z.string().nullable(),
  amount: z.string(),
  fee: z.string(),
  usdAmount: z.string().nullable(),
  audAmount: z.string().nullable(),
  currency: z.string().nullable(),
  status: ZTransactionStatus,
  withdrawalAddress: z.string().nullable(),
  transactionHash: z.string().nullable(),
  memo: z.string().nullable(),
  reason: z.string().nullable(),
  date: z.string(),
  completedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** Every admin who ever edited the row, oldest first: none of them may complete it. */
  editorIds: z.array(z.string()),
  processedBy: z.string().nullable(),
  bankTransfer: ZAdminBankTransfer.nullable(),
  /** A bank payout's rates (product.md M11): USD per 1 AUD, USD per unit of the funding asset. */
  audUsdRate: z.string().nullable(),
  priceUsd: z.string().nullable(),
  /**
   * A crypto withdrawal's way out on chain, once approved: approved, in-batch, broadcast,
   * confirming, completed, manual (a typed hash the chain has not shown yet) or unverified
   * (a typed hash on a chain Coffer does not watch). Null before approval.
   */
  payoutState: ZPayoutState.nullable().optional(),
  /** The final row an adjustment corrects (completed deposits, buys and sells are never edited). */
  correctsTransactionId: z.string().nullable().optional(),
});
export type TAdminTransaction = z.infer<typeof ZAdminTransaction>;

/**
 * A row of the list: what the table shows. The rest (addresses, hashes, the bank account)
 * comes with one transaction when staff open it, so listing a page never decrypts a page
 * of bank accounts, and an edit starts from the row as it is now.
 */
export const ZAdminTransactionSummary = ZAdminTransaction.pick({
  id: true,
  customer: true,
  type: true,
  direction: true,
  assetId: true,
  symbol: true,
  amount: true,
  usdAmount: true,
  audAmount: true,
  currency: true,
  status: true,
  date: true,
});
export type TAdminTransactionSummary = z.infer<typeof ZAdminTransactionSummary>;

/**
 * One page, newest first. No total: counting a million rows on every page costs more than
 * the page itself, so the screen pages with `hasMore` (the server reads one row extra).
 */
export const ZAdminTransactionsResponse = z.object({
  items: z.array(ZAdminTransactionSummary),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type TAdminTransactionsResponse = z.infer<typeof ZAdminTransactionsResponse>;

export const ZAdminTransactionResponse = z.object({ transaction: ZAdminTransaction });
export type TAdminTransactionResponse = z.infer<typeof ZAdminTransactionResponse>;

export const ZAdminTransactionIdParams = z.object({
  id: z.string().uuid({ error: 'Transaction not found.' }),
});

// ---------------------------------------------------------------- withdrawal processing

/**
 * Completing a payout by hand is proposed (202 with the pending change, `ZProposedResponse`
 * of staff.ts): another staff member approves it, and the checks run again then.
 */

export const ZCompletePayoutRequest = z.object({
  /** The chain transaction hash, or the bank's reference for a bank transfer. */
  reference: z.string().trim().max(200).default(''),
  stepUp: ZStepUp,
});
export type TCompletePayoutRequest = z.input<typeof ZCompletePayoutRequest>;

export const ZRejectPayoutRequest = z.object({
  reason: z
    .string({ error: ADMIN_TX_MSG.rejectReasonRequired })
    .trim()
    .min(1, ADMIN_TX_MSG.rejectReasonRequired)
    .max(500, 'Keep the reason under 500 characters'),
  stepUp: ZStepUp,
});
export type TRejectPayoutRequest = z.infer<typeof ZRejectPayoutRequest>;
