import { z } from 'zod';
import { ASSETS, assetById, ZAnyAssetId } from '../assets';
import { AmountError, assetAmountMessages, parseAmount } from '../money';
import { validateAddress } from '../validation/addresses';
import { normalizeBankReference, normalizeTxHash } from '../validation/payout-reference';
import { ADMIN_TX_MSG } from './admin-transactions-messages';
import { ZTransactionStatus } from './money';
import { ZStepUp } from './step-up';

/**
 * The Add and Edit transaction dialogs and the delete request: the fields staff type, and
 * the checks the browser and the server both run on them.
 */

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

/**
 * What an Add may record: the types above, and an adjustment, which only ever corrects a
 * final row (a completed deposit, buy or sell is never edited) and names it.
 */
export const ADMIN_CREATE_TYPES = [...ADMIN_TRANSACTION_TYPES, 'adjustment'] as const;
export const ZAdminCreateType = z.enum(ADMIN_CREATE_TYPES, { error: ADMIN_TX_MSG.requiredFields });
export type TAdminCreateType = z.infer<typeof ZAdminCreateType>;

export const ADMIN_CURRENCIES = ['USD', 'AUD'] as const;
export const ZAdminCurrency = z.enum(ADMIN_CURRENCIES, { error: 'Choose USD or AUD' });

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
  v: Omit<z.infer<typeof ZTransactionFields>, 'userId' | 'type'> & {
    type: TAdminCreateType;
    correctsTransactionId?: string | null;
    direction?: 'credit' | 'debit' | null;
  },
  ctx: z.RefinementCtx,
): void {
  if (v.type === 'adjustment') {
    if (!v.correctsTransactionId) {
      ctx.addIssue({
        code: 'custom',
        path: ['correctsTransactionId'],
        message: ADMIN_TX_MSG.correctionTargetRequired,
      });
    }
    if (!v.direction) {
      ctx.addIssue({
        code: 'custom',
        path: ['direction'],
        message: ADMIN_TX_MSG.correctionDirectionRequired,
      });
    }
  } else if (v.correctsTransactionId) {
    ctx.addIssue({
      code: 'custom',
      path: ['correctsTransactionId'],
      message: ADMIN_TX_MSG.correctionOnlyAdjustment,
    });
  }
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

/**
 * An Add's own fields: any type staff record, or an adjustment correcting a final row of
 * the same customer and asset (`correctsTransactionId`, required then and only then), which
 * credits or debits (`direction`) and is recorded completed.
 */
const ZCreateFields = ZTransactionFields.extend({
  type: ZAdminCreateType,
  correctsTransactionId: z
    .string()
    .uuid(ADMIN_TX_MSG.correctionTargetMissing)
    .nullable()
    .default(null),
  direction: z.enum(['credit', 'debit']).nullable().default(null),
});

/** The Add dialog's fields, checked in the browser before the step-up is asked for. */
export const ZAdminTransactionDraft = ZCreateFields.superRefine(refineTransaction);
export type TAdminTransactionDraft = z.input<typeof ZAdminTransactionDraft>;

/**
 * Adding a transaction moves money: the fields and a fresh second factor (step-up). It is
 * proposed (202): another staff member approves it before anything is recorded.
 */
export const ZCreateAdminTransactionRequest = ZCreateFields.extend({
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
