import { z } from 'zod';
import { ASSETS, CUSTOMER_ASSET_IDS, ZAssetId } from '../assets';
import { AmountError, assetAmountMessages, parseAmount } from '../money';
import { validateAddress } from '../validation/addresses';
import { ZRequestableAsset } from './deposit-requests';
import { ZStepUp } from './step-up';

/** Amounts travel as exact decimal strings, never as JSON numbers. */
const ZDecimal = z.string();
const ZIso = z.string();

// ---------------------------------------------------------------- prices

export const ZPriceSource = z.enum(['live', 'cached', 'fallback']);

export const ZPrice = z.object({
  assetId: z.string(),
  priceId: z.string(),
  priceUsd: ZDecimal,
  /** 24 h change in percent: from the feed, else from stored snapshots, else null ("—"). */
  change24hPct: ZDecimal.nullable(),
});

export const ZPricesResponse = z.object({
  prices: z.array(ZPrice),
  /** live: fetched just now; cached: the last good fetch; fallback: the catalogue prices. */
  source: ZPriceSource,
  updatedAt: ZIso.nullable(),
  /** 'Failed to fetch live prices, using cached data' when not live. */
  message: z.string().nullable(),
  audUsd: z.object({ rate: ZDecimal, live: z.boolean() }),
});
export type TPricesResponse = z.infer<typeof ZPricesResponse>;

// ---------------------------------------------------------------- wallets

export const ZWallet = z.object({
  id: z.string(),
  assetId: ZAssetId,
  symbol: z.string(),
  name: z.string(),
  network: z.string(),
  decimals: z.number().int(),
  balance: ZDecimal,
  held: ZDecimal,
  available: ZDecimal,
  /** balance × live price; null when no price is known (then balanceFiat is shown). */
  usdValue: ZDecimal.nullable(),
  /** USD value stored at the last price sync. */
  balanceFiat: ZDecimal,
  priceUsd: ZDecimal.nullable(),
  change24hPct: ZDecimal.nullable(),
});
export type TWallet = z.infer<typeof ZWallet>;

export const ZWalletsResponse = z.object({
  wallets: z.array(ZWallet),
  totalUsd: ZDecimal,
  /** Portfolio change over 24 h in percent (product.md M3), null when unknown. */
  change24hPct: ZDecimal.nullable(),
  priceSource: ZPriceSource,
  priceMessage: z.string().nullable(),
});
export type TWalletsResponse = z.infer<typeof ZWalletsResponse>;

export const ZPortfolioRange = z.enum(['24h', '7d', '30d', '1y']);
export const ZPortfolioHistoryQuery = z.object({ range: ZPortfolioRange.default('24h') });
export const ZPortfolioHistoryResponse = z.object({
  range: ZPortfolioRange,
  points: z.array(z.object({ t: ZIso, usd: ZDecimal })),
});
export type TPortfolioHistoryResponse = z.infer<typeof ZPortfolioHistoryResponse>;

// ---------------------------------------------------------------- money status (settings)

export const ZMoneyStatus = z.object({
  depositsEnabled: z.boolean(),
  withdrawalsEnabled: z.boolean(),
  maintenanceMode: z.boolean(),
  maxDailyWithdrawalUsd: ZDecimal,
  withdrawnTodayUsd: ZDecimal,
  remainingTodayUsd: ZDecimal,
  bankStatementDescriptor: z.string(),
  /**
   * The server's BTC_NETWORK: the Bitcoin network withdrawal and deposit addresses are
   * checked for, so the forms refuse what the server would (a `bcrt1…` address on regtest).
   */
  bitcoinNetwork: z.enum(['mainnet', 'testnet', 'regtest']),
});
export type TMoneyStatus = z.infer<typeof ZMoneyStatus>;

/**
 * What a customer reads when an operator's setting stops a money action (product.md M10):
 * the server's refusal and the screens that know beforehand say the same.
 */
export const MONEY_MSG = {
  maintenance:
    'Coffer is undergoing maintenance. Withdrawals and bank transfers are paused; please try again later.',
  withdrawalsDisabled:
    'Withdrawals and bank transfers are turned off at the moment. Please try again later or contact support.',
  depositsPaused:
    'Deposits are paused at the moment. Please do not send funds to a deposit address until deposits resume.',
} as const;

// ---------------------------------------------------------------- deposit addresses

export const ZDepositAddress = z.object({
  id: z.string(),
  assetSymbol: z.string(),
  network: z.string(),
  address: z.string(),
  /** The customer wallet this address pays into, when it is one of the catalogue's. */
  assetId: ZAssetId.nullable(),
  createdAt: ZIso,
});
export type TDepositAddress = z.infer<typeof ZDepositAddress>;

export const ZDepositAddressesResponse = z.object({
  /** False when the operator turned deposits off; addresses are then withheld. */
  enabled: z.boolean(),
  message: z.string().nullable(),
  addresses: z.array(ZDepositAddress),
  /** Wallets with no address here, on a chain Coffer does not watch: staff give one on request. */
  requestable: z.array(ZRequestableAsset),
});
export type TDepositAddressesResponse = z.infer<typeof ZDepositAddressesResponse>;

// ---------------------------------------------------------------- transactions

export const ZTransactionType = z.enum([
  'deposit',
  'withdrawal',
  'bank_transfer',
  'staking_reward',
  'adjustment',
  'buy',
  'sell',
  'others',
]);
export const ZTransactionStatus = z.enum(['pending', 'completed', 'failed']);

export const ZTransaction = z.object({
  id: z.string(),
  type: ZTransactionType,
  direction: z.enum(['credit', 'debit', 'none']),
  /** Asset id, or 'AUD' for a bank transfer. */
  assetId: z.string(),
  symbol: z.string(),
  network: z.string().nullable(),
  amount: ZDecimal,
  fee: ZDecimal,
  usdAmount: ZDecimal.nullable(),
  audAmount: ZDecimal.nullable(),
  status: ZTransactionStatus,
  withdrawalAddress: z.string().nullable(),
  transactionHash: z.string().nullable(),
  memo: z.string().nullable(),
  /** Staff's reason (an adjustment) or why a withdrawal was rejected. */
  reason: z.string().nullable(),
  /**
   * The rates a bank payout was converted at (product.md M11): USD per 1 AUD, and the USD
   * price of one unit of the asset that funds it. Null for other rows.
   */
  audUsdRate: ZDecimal.nullable(),
  priceUsd: ZDecimal.nullable(),
  date: ZIso,
  completedAt: ZIso.nullable(),
  /**
   * A chain deposit still confirming: the blocks that include it so far and the
   * number it is credited at ("Confirming 2 of 12"). Absent or null for every other row.
   */
  confirmations: z
    .object({ current: z.number().int().nonnegative(), required: z.number().int().positive() })
    .nullable()
    .optional(),
  /**
   * The block explorer page of `transactionHash`, from the operator's explorer
   * setting for the asset's chain: set on the customer history's deposits and withdrawals
   * that are not failed; absent or null where there is no link.
   */
  explorerUrl: z.string().nullable().optional(),
  /**
   * A withdrawal or bank payout the customer asked for and cancelled themselves before
   * anyone took it (its status is failed: nothing left, the hold went back). History only.
   */
  cancelled: z.boolean().optional(),
  /**
   * The customer may cancel it now: their own payout request, pending, not approved for
   * a batch and not edited by staff (`POST /api/withdrawals/:id/cancel`). History only.
   */
  cancellable: z.boolean().optional(),
  /** Where a bank payout goes: the account's name, BSB and last digits. History only. */
  bankAccount: z
    .object({ accountName: z.string(), bsb: z.string(), accountEnding: z.string() })
    .optional(),
});
export type TTransaction = z.infer<typeof ZTransaction>;

export const ZTransactionResponse = z.object({ transaction: ZTransaction });
export type TTransactionResponse = z.infer<typeof ZTransactionResponse>;

// ---------------------------------------------------------------- withdrawals

export const WITHDRAWAL_MSG = {
  selectAsset: 'Please select a cryptocurrency',
  amountPositive: 'Amount must be greater than 0',
  addressRequired: 'Withdrawal address is required',
} as const;

/** 0.00000001, the spec's minimum withdrawal, in each asset's minor units. */
export function minimumWithdrawal(decimals: number): bigint {
  return decimals >= 8 ? 10n ** BigInt(decimals - 8) : 1n;
}

const ZWithdrawalFields = z.object({
  assetId: z.string({ error: WITHDRAWAL_MSG.selectAsset }),
  amount: z.string({ error: WITHDRAWAL_MSG.amountPositive }).max(60),
  address: z.string({ error: WITHDRAWAL_MSG.addressRequired }).trim().max(200),
  memo: z.string().trim().max(100).optional(),
});

/**
 * A withdrawal's fields checked in the spec's order: asset, amount, address presence, then
 * (on the server, with the balance) funds, then the address's format and checksum.
 */
function checkWithdrawalFields(value: z.infer<typeof ZWithdrawalFields>, ctx: z.RefinementCtx) {
  const asset = ZAssetId.safeParse(value.assetId);
  if (!asset.success) {
    ctx.addIssue({ code: 'custom', path: ['assetId'], message: WITHDRAWAL_MSG.selectAsset });
    return;
  }
  const decimals = ASSETS[asset.data].decimals;
  try {
    const minor = parseAmount(value.amount, decimals, assetAmountMessages(ASSETS[asset.data]));
    if (minor < minimumWithdrawal(decimals)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: WITHDRAWAL_MSG.amountPositive });
      return;
    }
  } catch (err) {
    const message = err instanceof AmountError ? err.message : WITHDRAWAL_MSG.amountPositive;
    ctx.addIssue({ code: 'custom', path: ['amount'], message });
    return;
  }
  if (value.address === '') {
    ctx.addIssue({ code: 'custom', path: ['address'], message: WITHDRAWAL_MSG.addressRequired });
  }
}

/** The withdrawal form's request before its step-up is asked for. */
export const ZWithdrawalDraft = ZWithdrawalFields.superRefine(checkWithdrawalFields);
export type TWithdrawalDraft = z.infer<typeof ZWithdrawalDraft>;

/** A withdrawal request: the fields and a fresh second factor (step-up). */
export const ZCreateWithdrawalRequest = ZWithdrawalFields.extend({ stepUp: ZStepUp }).superRefine(
  checkWithdrawalFields,
);
export type TCreateWithdrawalRequest = z.infer<typeof ZCreateWithdrawalRequest>;

/** The address check that follows the balance check. */
export function withdrawalAddressError(assetId: string, address: string): string | null {
  const result = validateAddress(assetId, address);
  return result.ok ? null : result.message;
}

// ---------------------------------------------------------------- bank transfers and details

export const BANK_MSG = {
  accountNumberRequired: 'Account number is required',
  accountNameRequired: 'Account name is required',
  bsbTooShort: 'BSB number must be at least 6 characters',
  bsbTooLong: 'BSB number must be exactly 6 characters',
  amountPositive: 'Amount must be greater than 0',
  fullNameRequired: 'Full name is required',
  fullNameShort: 'Full name must be at least 2 characters',
  bsbRequired: 'BSB number is required',
  bsbDigits: 'BSB must be 6 digits',
  accountDigits: 'Account number must be 6-10 digits',
} as const;

/** A fiat amount of at least 0.01, at most two decimals, as an exact string. */
const ZFiatAmount = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, BANK_MSG.amountPositive)
  // zod runs this even after the pattern failed: an input like '0.001' must not throw here.
  .refine((v) => {
    try {
      return parseAmount(v, 2) >= 1n;
    } catch {
      return false;
    }
  }, BANK_MSG.amountPositive);

/** A BSB as the bank-details form takes it: spaces and the 123-456 hyphen dropped, 6 digits. */
const ZBsb = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, BANK_MSG.bsbRequired)
      .regex(/^\d{6}$/, BANK_MSG.bsbDigits),
  );

/** An account number as the bank-details form takes it: 6 to 10 digits. */
const ZAccountNumber = z
  .string()
  .trim()
  .min(1, BANK_MSG.accountNumberRequired)
  .regex(/^\d{6,10}$/, BANK_MSG.accountDigits);

export const PAYOUT_MSG = {
  selectAsset: 'Please select the asset that pays for this transfer',
} as const;

/**
 * "Bank transfer form", in its order; the amount is the AUD value. The
 * account is checked as the bank-details form checks it (digits only), and the customer
 * names the asset that funds the payout (product.md M11): the server converts at its own
 * rates and holds that amount.
 */
/** The bank transfer form's request before its step-up is asked for. */
export const ZBankTransferDraft = z.object({
  accountNumber: ZAccountNumber,
  accountName: z.string().trim().min(1, BANK_MSG.accountNameRequired).max(140),
  bsbNumber: ZBsb,
  amountAud: ZFiatAmount,
  assetId: z.enum(CUSTOMER_ASSET_IDS, { error: PAYOUT_MSG.selectAsset }),
});
export type TBankTransferDraft = z.infer<typeof ZBankTransferDraft>;

/** A bank payout request: the fields and a fresh second factor (step-up). */
export const ZCreateBankTransferRequest = ZBankTransferDraft.extend({ stepUp: ZStepUp });
export type TCreateBankTransferRequest = z.infer<typeof ZCreateBankTransferRequest>;

/** "Bank details form". */
export const ZBankDetails = z.object({
  fullName: z
    .string()
    .trim()
    .min(1, BANK_MSG.fullNameRequired)
    .min(2, BANK_MSG.fullNameShort)
    .max(140),
  bsb: ZBsb,
  accountNumber: ZAccountNumber,
});
export type TBankDetails = z.infer<typeof ZBankDetails>;

/** Where payouts go changes only with a fresh second factor (step-up). */
export const ZSaveBankDetailsRequest = ZBankDetails.extend({ stepUp: ZStepUp });
export type TSaveBankDetailsRequest = z.infer<typeof ZSaveBankDetailsRequest>;

/**
 * Saved details as the server answers them: already normalized, so a plain shape. (A
 * response schema must not hold ZBankDetails' transform: responses are encoded, and a
 * one-way transform cannot be.)
 */
export const ZSavedBankDetails = z.object({
  fullName: z.string(),
  bsb: z.string(),
  accountNumber: z.string(),
});
export const ZBankDetailsResponse = z.object({ details: ZSavedBankDetails.nullable() });
export type TBankDetailsResponse = z.infer<typeof ZBankDetailsResponse>;

// ---------------------------------------------------------------- staking

export const ZStakingResponse = z.object({
  ethBalance: ZDecimal,
  isStaking: z.boolean(),
  /** 'active' when ETH is held and the program has started; else why not. */
  status: z.enum(['active', 'no_eth', 'not_started']),
  dailyRate: ZDecimal,
  programStart: ZIso,
  activeStakers: z.number().int(),
  /** Rewards already credited to the ETH balance (withdrawable). */
  creditedTotal: ZDecimal,
  /** Accrued and not yet credited, as of `asOf`. */
  pendingAccrued: ZDecimal,
  /** ETH accrued per second at the current balance, for the ticking display. */
  accruingPerSecond: ZDecimal,
  dailyEarnings: ZDecimal,
  cycleStartAt: ZIso.nullable(),
  nextCreditAt: ZIso.nullable(),
  stakingSince: ZIso.nullable(),
  asOf: ZIso,
});
export type TStakingResponse = z.infer<typeof ZStakingResponse>;
