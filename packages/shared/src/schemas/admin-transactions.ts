import { z } from 'zod';
import { ASSETS, assetById, ZAnyAssetId } from '../assets';
import { AmountError, assetAmountMessages, parseAmount } from '../money';
import { validateAddress } from '../validation/addresses';
import { normalizeBankReference, normalizeTxHash } from '../validation/payout-reference';
import { ZTransactionStatus, ZTransactionType } from './money';
import { ZPayoutState } from './payouts';
import { ZStepUp } from './step-up';

/**
 * The admin Transactions screen and withdrawal processing. Every
 * change goes through the ledger and carries a reason (product.md M7).
 */
export const ADMIN_TX_MSG = {
  requiredFields: 'Please fill in all required fields',
  withdrawalAddressRequired: 'Withdrawal address is required for withdrawal transactions',
  withdrawalAddressInvalid: 'Invalid withdrawal address format',
  bankDetailsRequired: 'Account name, account number and BSB number are required',
  reasonRequired: 'Enter the reason for this change; it is kept in the audit log.',
  customerPayoutLocked:
    'The customer confirmed this destination, asset and amount with their own second factor: staff cannot change them. Reject the payout and ask the customer to request it again.',
  dateInvalid: 'Enter a valid date and time',
  dateOutOfRange: 'Enter a date from 3 January 2009 (the first Bitcoin block) up to tomorrow.',
  usdInvalid: 'Enter the USD amount as a number with at most 2 decimals, like 1250.50',
  audInvalid: 'Enter the AUD amount as a number with at most 2 decimals, like 1900.76',
  usdTooLarge: 'The USD amount can have at most 15 whole digits.',
  audTooLarge: 'The AUD amount can have at most 15 whole digits.',
  cryptoTooLarge: 'The crypto amount can have at most 15 whole digits.',
  deleteConfirm: 'Are you sure you want to delete this transaction? This action cannot be undone.',
  empty: 'No transactions found matching your criteria.',
  added: 'Transaction added successfully',
  updated: 'Transaction updated successfully',
  deleted: 'Transaction deleted successfully',
  addFailed: 'Failed to add transaction',
  updateFailed: 'Failed to update transaction',
  deleteFailed: 'Failed to delete transaction',
  payoutPending:
    'A withdrawal or bank transfer is recorded as pending; another admin completes it in Pending withdrawals.',
  fourEyes:
    'You created or edited this request yourself. Another admin must complete it (four-eyes rule).',
  hashRequired: 'Enter the transaction hash of the payout.',
  bankReferenceRequired: 'Enter the bank reference of the payout.',
  rejectReasonRequired: 'Enter the reason the customer will see.',
  payoutCompletedFinal:
    'This payout is final: it was completed. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  payoutRejectedFinal:
    'This payout is final: it was rejected. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  adjustmentFinal:
    'An adjustment is final: it is corrected by a reversing adjustment, never edited or deleted. Edit the wallet balance in Wallet Management with a reason.',
  stakingRewardNoEdit:
    'Staking rewards cannot be edited. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  payoutTypeLocked:
    'A withdrawal or bank transfer stays what it is, and no other transaction can become one. Reject the payout, or add a new transaction.',
  payoutStatusByEdit:
    "A payout's status is not changed by Edit: Complete or Reject it in Pending withdrawals, which tells the customer and checks four eyes.",
  finalRow:
    'This transaction is final and cannot be changed. Record a correction as a new adjustment with a reason (Wallet Management, edit the balance).',
  unfundedPayout:
    "This bank transfer was requested before payouts were funded and holds nothing from the customer's balance, so it cannot be paid out. Reject it with a reason: the customer can request it again, paid from a balance.",
  customerPayoutNoDelete:
    "A customer's own payout request is not deleted: Reject it in Pending withdrawals, which releases the hold and tells the customer why.",
  fundedPayoutAmounts:
    "This bank payout is funded from the customer's crypto, which is held for it: its amounts cannot be edited. Reject it and ask the customer for a new request.",
} as const;

/** The fixed AUD per USD rate of the add-transaction form. */
export const ADMIN_AUD_PER_USD = '1.52';

/** Types staff may record. */
export const ADMIN_TRANSACTION_TYPES = [
  'deposit',
  'withdrawal',
  'buy',
  'sell',
  'bank_transfer',
] as const;
export const ZAdminTransactionType = z.enum(ADMIN_TRANSACTION_TYPES, {
  error: ADMIN_TX_MSG.requiredFields,
});
export type TAdminTransactionType = z.infer<typeof ZAdminTransactionType>;

export const ADMIN_CURRENCIES = ['USD', 'AUD'] as const;
export const ZAdminCurrency = z.enum(ADMIN_CURRENCIES, { error: 'Choose USD or AUD' });

// ---------------------------------------------------------------- list

const ZAllOr = <T extends z.ZodEnum>(e: T) => z.union([z.literal('all'), e]).default('all');

export const ZAdminTransactionsQuery = z.object({
  q: z.string().trim().max(200).default(''),
  status: ZAllOr(ZTransactionStatus),
  type: ZAllOr(ZTransactionType),
  currency: ZAllOr(ZAdminCurrency),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type TAdminTransactionsQuery = z.input<typeof ZAdminTransactionsQuery>;

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

// ---------------------------------------------------------------- create and edit

const ZReason = z
  .string({ error: ADMIN_TX_MSG.reasonRequired })
  .trim()
  .min(1, ADMIN_TX_MSG.reasonRequired)
  .max(500, 'Keep the reason under 500 characters');

/**
 * Whole digits an amount staff type may have. Crypto is numeric(38, 18) in PostgreSQL (20
 * whole digits) and fiat numeric(20, 2) (18): 15 leaves room for the balance it lands in to
 * grow, and for the AUD figure derived from a USD one (× 1.52).
 */
export const ADMIN_MAX_WHOLE_DIGITS = 15;

const FIAT = /^\d+(\.\d{1,2})?$/;

/** The message for a typed USD or AUD figure, or null when it is good. */
function fiatMessage(value: string, invalid: string, tooLarge: string): string | null {
  if (!FIAT.test(value)) return invalid;
  const whole = value.split('.')[0]?.replace(/^0+/, '') ?? '';
  return whole.length > ADMIN_MAX_WHOLE_DIGITS ? tooLarge : null;
}

const ZBankInput = z.object({
  accountName: z.string().trim().max(140).default(''),
  accountNumber: z.string().trim().max(34).default(''),
  bsbNumber: z.string().trim().max(6, 'BSB number must be exactly 6 characters').default(''),
  currency: ZAdminCurrency.default('AUD'),
});

// An instant as the browser's toISOString writes it, with its zone: four-digit years only
// (no '+275760-…' or '-000001-…' extended years), seconds and milliseconds optional.
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** The first Bitcoin block: nothing on any of our chains happened before it. */
export const ADMIN_EARLIEST_DATE = Date.UTC(2009, 0, 3);

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Why a typed instant is not a real date in range, or null when it is. The calendar is
 * checked here, field by field: Date.parse rolls 2024-02-30 over to 1 March.
 */
export function adminDateMessage(value: string, now = Date.now()): string | null {
  const m = ISO_INSTANT.exec(value);
  if (!m) return ADMIN_TX_MSG.dateInvalid;
  const [year, month, day, hour, minute, second, offH, offM] = m
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  if (
    year === undefined ||
    month === undefined ||
    day === undefined ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    (hour ?? 0) > 23 ||
    (minute ?? 0) > 59 ||
    (second ?? 0) > 59 ||
    (offH ?? 0) > 14 ||
    (offM ?? 0) > 59
  ) {
    return ADMIN_TX_MSG.dateInvalid;
  }
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return ADMIN_TX_MSG.dateInvalid;
  // Tomorrow at most: a date typed in any time zone for today is still accepted.
  if (instant < ADMIN_EARLIEST_DATE || instant > now + 86_400_000) {
    return ADMIN_TX_MSG.dateOutOfRange;
  }
  return null;
}

const ZDateTime = z
  .string({ error: ADMIN_TX_MSG.requiredFields })
  .trim()
  .min(1, ADMIN_TX_MSG.requiredFields)
  .superRefine((v, ctx) => {
    const message = adminDateMessage(v);
    if (message) ctx.addIssue({ code: 'custom', message });
  });

/** The fields of the Add and Edit dialogs; amounts are exact decimal strings. */
const ZTransactionFields = z.object({
  userId: z.string({ error: ADMIN_TX_MSG.requiredFields }).uuid(ADMIN_TX_MSG.requiredFields),
  /** Ignored for bank_transfer, which moves fiat only. */
  assetId: z.string().default(''),
  type: ZAdminTransactionType,
  cryptoAmount: z.string().trim().max(60).default(''),
  usdAmount: z.string({ error: ADMIN_TX_MSG.requiredFields }).trim().max(30),
  audAmount: z.string().trim().max(30).default(''),
  status: ZTransactionStatus.default('pending'),
  transactionDate: ZDateTime,
  withdrawalAddress: z.string().trim().max(200).default(''),
  transactionHash: z.string().trim().max(200).default(''),
  bank: ZBankInput.optional(),
  reason: ZReason,
});

/**
 * in its order: the required fields ('Please fill in all required fields'),
 * then the amounts (at most the asset's decimals), the withdrawal address (required, then
 * the network's rule), the banking details of a bank transfer.
 */
function refineTransaction(
  v: Omit<z.infer<typeof ZTransactionFields>, 'userId'>,
  ctx: z.RefinementCtx,
): void {
  const bank = v.type === 'bank_transfer';
  const missing = v.usdAmount === '' || (!bank && (v.assetId === '' || v.cryptoAmount === ''));
  if (missing) {
    ctx.addIssue({ code: 'custom', path: [], message: ADMIN_TX_MSG.requiredFields });
    return;
  }
  const usd = fiatMessage(v.usdAmount, ADMIN_TX_MSG.usdInvalid, ADMIN_TX_MSG.usdTooLarge);
  if (usd) ctx.addIssue({ code: 'custom', path: ['usdAmount'], message: usd });
  const aud =
    v.audAmount === ''
      ? null
      : fiatMessage(v.audAmount, ADMIN_TX_MSG.audInvalid, ADMIN_TX_MSG.audTooLarge);
  if (aud) ctx.addIssue({ code: 'custom', path: ['audAmount'], message: aud });
  if (bank) {
    const b = v.bank;
    if (!b || b.accountName === '' || b.accountNumber === '' || b.bsbNumber === '') {
      ctx.addIssue({ code: 'custom', path: ['bank'], message: ADMIN_TX_MSG.bankDetailsRequired });
    }
    if (v.transactionHash !== '') {
      const ref = normalizeBankReference(v.transactionHash);
      if (!ref.ok) {
        ctx.addIssue({ code: 'custom', path: ['transactionHash'], message: ref.message });
      }
    }
    return;
  }
  const parsedAsset = ZAnyAssetId.safeParse(v.assetId);
  if (!parsedAsset.success) {
    ctx.addIssue({ code: 'custom', path: ['assetId'], message: 'Please select an asset' });
    return;
  }
  const asset = ASSETS[parsedAsset.data];
  try {
    const minor = parseAmount(v.cryptoAmount, asset.decimals, assetAmountMessages(asset));
    if (minor === 0n) {
      ctx.addIssue({
        code: 'custom',
        path: ['cryptoAmount'],
        message: 'Amount must be greater than 0',
      });
    } else if (minor >= 10n ** BigInt(ADMIN_MAX_WHOLE_DIGITS + asset.decimals)) {
      // 99999999999999999999 USDT fits the column once, and then no credit fits after it.
      ctx.addIssue({
        code: 'custom',
        path: ['cryptoAmount'],
        message: ADMIN_TX_MSG.cryptoTooLarge,
      });
    }
  } catch (err) {
    ctx.addIssue({
      code: 'custom',
      path: ['cryptoAmount'],
      message: err instanceof AmountError ? err.message : 'Amount must be greater than 0',
    });
  }
  if (v.type === 'withdrawal') {
    const message = withdrawalAddressMessage(asset.id, v.withdrawalAddress);
    if (message) ctx.addIssue({ code: 'custom', path: ['withdrawalAddress'], message });
  }
  if (v.transactionHash !== '') {
    const hash = normalizeTxHash(asset.id, v.transactionHash);
    if (!hash.ok) {
      ctx.addIssue({ code: 'custom', path: ['transactionHash'], message: hash.message });
    }
  }
}

/** The withdrawal address rule of §5: required, then the network's checker or its format text. */
export function withdrawalAddressMessage(assetId: string, address: string): string | null {
  if (address.trim() === '') return ADMIN_TX_MSG.withdrawalAddressRequired;
  if (!assetById(assetId)) return ADMIN_TX_MSG.withdrawalAddressInvalid;
  const result = validateAddress(assetId, address);
  return result.ok ? null : result.message || ADMIN_TX_MSG.withdrawalAddressInvalid;
}

/** The Add dialog's fields, checked in the browser before the step-up is asked for. */
export const ZAdminTransactionDraft = ZTransactionFields.superRefine(refineTransaction);
export type TAdminTransactionDraft = z.input<typeof ZAdminTransactionDraft>;

/** Adding a transaction moves money: the fields and a fresh second factor (step-up). */
export const ZCreateAdminTransactionRequest = ZTransactionFields.extend({
  stepUp: ZStepUp,
}).superRefine(refineTransaction);
export type TCreateAdminTransactionRequest = z.input<typeof ZCreateAdminTransactionRequest>;
export type TCreateAdminTransaction = z.output<typeof ZCreateAdminTransactionRequest>;

/**
 * An edit sends the whole form again (the Edit dialog is the Add dialog filled in), minus
 * the customer, who never changes: a transaction moved to someone else would be a
 * deletion and a new transaction.
 */
export const ZAdminTransactionEditDraft = ZTransactionFields.omit({ userId: true }).superRefine(
  refineTransaction,
);
export type TAdminTransactionEditDraft = z.input<typeof ZAdminTransactionEditDraft>;

export const ZUpdateAdminTransactionRequest = ZTransactionFields.omit({ userId: true })
  .extend({ stepUp: ZStepUp })
  .superRefine(refineTransaction);
export type TUpdateAdminTransactionRequest = z.input<typeof ZUpdateAdminTransactionRequest>;
export type TUpdateAdminTransaction = z.output<typeof ZUpdateAdminTransactionRequest>;

/** Deleting a transaction reverses its effect on a balance: a reason and the admin's step-up. */
export const ZDeleteAdminTransactionRequest = z.object({ reason: ZReason, stepUp: ZStepUp });
export type TDeleteAdminTransactionRequest = z.infer<typeof ZDeleteAdminTransactionRequest>;

// ---------------------------------------------------------------- withdrawal processing

export const ZPendingPayoutsResponse = z.object({ items: z.array(ZAdminTransaction) });
export type TPendingPayoutsResponse = z.infer<typeof ZPendingPayoutsResponse>;

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
