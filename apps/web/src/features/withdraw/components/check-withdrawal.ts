import {
  AmountError,
  assetAmountMessages,
  assetById,
  formatAmount,
  minimumWithdrawal,
  parseAmount,
  type TAsset,
  type TWithdrawalDraft,
  WITHDRAWAL_MSG,
  withdrawalAddressError,
  ZWithdrawalDraft,
} from '@coffer/shared';

export type TWithdrawalFields = {
  assetId: string;
  amount: string;
  address: string;
  memo?: string;
  /**
   * The amount is what Max filled in. Max fills 0 when the balance does not cover the fee,
   * and the customer is told that, not that the amount must be more than 0.
   */
  amountFromMax?: boolean;
};

/** What the customer can withdraw: the wallet's available balance; staking is shown only. */
export type TWithdrawalFunds = {
  /** Available balance (credited staking rewards included), minor units. */
  available: bigint;
  /** Staking accrual not yet credited, minor units: shown, not withdrawable (counts as 0). */
  pendingStaking: bigint;
};

export type TWithdrawalCheck = {
  asset: TAsset | undefined;
  errors: { assetId?: string; amount?: string; address?: string };
  /** The first error in order, for a message above the button. */
  first: string | null;
  /** Set when the amount parses: what is sent, the fee and what is held in all. */
  amountMinor: bigint | null;
  feeMinor: bigint | null;
  /** The request exactly as the server will check it, when nothing is wrong. */
  request: TWithdrawalDraft | null;
};

/** 8 decimals, no grouping, as the insufficient-balance message quotes them. */
function eight(minor: bigint, decimals: number): string {
  return formatAmount(minor, decimals, { minFractionDigits: 8, maxFractionDigits: 8 });
}

export function insufficientBalanceMessage(asset: TAsset, funds: TWithdrawalFunds): string {
  const wallet = eight(funds.available, asset.decimals);
  const staking = eight(funds.pendingStaking, asset.decimals);
  return `Insufficient balance. Available: ${wallet} ${asset.symbol} (Wallet: ${wallet}, Staking: ${staking})`;
}

/** The network fee, in minor units, added to the amount and held with it. */
export function feeOf(asset: TAsset): bigint {
  return parseAmount(asset.networkFee, asset.decimals);
}

/**
 * What Max fills in: the available balance less the network fee, so that amount + fee never
 * exceeds what is there; 0 when the balance does not cover the fee.
 */
export function maxWithdrawable(asset: TAsset, funds: TWithdrawalFunds): bigint {
  const fee = feeOf(asset);
  return funds.available > fee ? funds.available - fee : 0n;
}

/** Max's figure as the amount field takes it: all the asset's decimals, no grouping. */
export function maxAmountText(asset: TAsset, funds: TWithdrawalFunds): string {
  return formatAmount(maxWithdrawable(asset, funds), asset.decimals);
}

/**
 * The withdrawal form's checks, in order: asset, amount (at least
 * 0.00000001), address present, amount + fee within the available balance, address format.
 * The first three are the shared request schema's, so the form and the server agree.
 */
export function checkWithdrawal(
  fields: TWithdrawalFields,
  funds: TWithdrawalFunds | null,
  /**
   * Whether the server's Bitcoin network is known yet (the money status has loaded). Until
   * it is, a Bitcoin address is neither refused nor accepted: the check would follow
   * mainnet, and a regtest or testnet server takes other addresses.
   */
  bitcoinNetworkKnown = true,
): TWithdrawalCheck {
  const asset = assetById(fields.assetId);
  const errors: TWithdrawalCheck['errors'] = {};
  const order: string[] = [];
  let amountMinor: bigint | null = null;
  let feeMinor: bigint | null = null;

  if (!asset || asset.adminOnly) {
    errors.assetId = WITHDRAWAL_MSG.selectAsset;
    return {
      asset: undefined,
      errors,
      first: errors.assetId,
      amountMinor,
      feeMinor,
      request: null,
    };
  }

  feeMinor = feeOf(asset);
  try {
    amountMinor = parseAmount(fields.amount, asset.decimals, assetAmountMessages(asset));
    if (amountMinor < minimumWithdrawal(asset.decimals)) {
      const feeNotCovered = fields.amountFromMax === true && funds && funds.available <= feeMinor;
      errors.amount = feeNotCovered
        ? insufficientBalanceMessage(asset, funds)
        : WITHDRAWAL_MSG.amountPositive;
      amountMinor = null;
    }
  } catch (err) {
    errors.amount = err instanceof AmountError ? err.message : WITHDRAWAL_MSG.amountPositive;
  }
  if (errors.amount) order.push(errors.amount);

  const address = fields.address.trim();
  if (address === '') {
    errors.address = WITHDRAWAL_MSG.addressRequired;
    order.push(errors.address);
  }

  if (amountMinor !== null && funds && amountMinor + feeMinor > funds.available) {
    errors.amount = insufficientBalanceMessage(asset, funds);
    order.push(errors.amount);
  }

  const addressCheckable = bitcoinNetworkKnown || asset.network !== 'bitcoin';
  if (address !== '' && addressCheckable) {
    const addressError = withdrawalAddressError(asset.id, address);
    if (addressError) {
      errors.address = addressError;
      order.push(addressError);
    }
  }

  let request: TWithdrawalDraft | null = null;
  if (order.length === 0 && funds && addressCheckable) {
    const memo = fields.memo?.trim();
    const parsed = ZWithdrawalDraft.safeParse({
      assetId: asset.id,
      amount: formatAmount(amountMinor ?? 0n, asset.decimals),
      address,
      ...(memo ? { memo } : {}),
    });
    if (parsed.success) request = parsed.data;
    else order.push(parsed.error.issues[0]?.message ?? WITHDRAWAL_MSG.amountPositive);
  }

  return { asset, errors, first: order[0] ?? null, amountMinor, feeMinor, request };
}
