import {
  ADMIN_TRANSACTION_TYPES,
  type TAdminTransaction,
  type TAnyAssetId,
  ZAnyAssetId,
} from '@coffer/shared';
import type { PickedUser } from '@web/components/admin/user-picker';

export type TTransactionType = (typeof ADMIN_TRANSACTION_TYPES)[number];

/** The Add and Edit Transaction form's fields: the customer (on Add) and the row as typed. */
export type TTransactionFields = {
  user: PickedUser | null;
  assetId: TAnyAssetId;
  type: TTransactionType;
  cryptoAmount: string;
  usdAmount: string;
  audAmount: string;
  status: 'pending' | 'completed' | 'failed';
  date: string;
  withdrawalAddress: string;
  transactionHash: string;
  accountName: string;
  accountNumber: string;
  bsbNumber: string;
  bankCurrency: 'AUD' | 'USD';
  reason: string;
};

export const TYPE_LABELS: Record<TTransactionType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  buy: 'Buy',
  sell: 'Sell',
  bank_transfer: 'Bank transfer',
};

/** A datetime-local value (the admin's local time) for an ISO instant. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

export function isAdminType(type: string): type is TTransactionType {
  return ADMIN_TRANSACTION_TYPES.some((t) => t === type);
}

/**
 * A payout the customer asked for: its destination, asset and amounts are what the customer
 * confirmed with their own second factor, so the form shows them but does not offer them.
 */
export function customerPayout(tx: TAdminTransaction | null): boolean {
  return (
    tx !== null &&
    (tx.type === 'withdrawal' || tx.type === 'bank_transfer') &&
    tx.createdBy === tx.customer.id
  );
}

export function initialFields(tx: TAdminTransaction | null): TTransactionFields {
  const asset = ZAnyAssetId.safeParse(tx?.assetId);
  const bankCurrency = tx?.bankTransfer?.currency === 'USD' ? 'USD' : 'AUD';
  return {
    user: null,
    assetId: asset.success ? asset.data : 'BTC',
    type: tx && isAdminType(tx.type) ? tx.type : 'deposit',
    cryptoAmount: tx && tx.direction !== 'none' ? tx.amount : '',
    usdAmount: tx?.usdAmount ?? '',
    audAmount: tx?.audAmount ?? '',
    status: tx?.status ?? 'pending',
    date: toLocalInput(tx?.date ?? new Date().toISOString()),
    withdrawalAddress: tx?.withdrawalAddress ?? '',
    transactionHash: tx?.transactionHash ?? '',
    accountName: tx?.bankTransfer?.accountName ?? '',
    accountNumber: tx?.bankTransfer?.accountNumber ?? '',
    bsbNumber: tx?.bankTransfer?.bsbNumber ?? '',
    bankCurrency,
    reason: '',
  };
}

/** The request the fields stand for, before the shared schema checks it. */
export function transactionBodyOf(f: TTransactionFields) {
  const bank = f.type === 'bank_transfer';
  return {
    assetId: bank ? '' : f.assetId,
    type: f.type,
    cryptoAmount: bank ? '' : f.cryptoAmount,
    usdAmount: f.usdAmount,
    audAmount: f.audAmount,
    status: f.status,
    transactionDate: fromLocalInput(f.date),
    withdrawalAddress: f.type === 'withdrawal' ? f.withdrawalAddress : '',
    transactionHash: f.transactionHash,
    ...(bank
      ? {
          bank: {
            accountName: f.accountName,
            accountNumber: f.accountNumber,
            bsbNumber: f.bsbNumber,
            currency: f.bankCurrency,
          },
        }
      : {}),
    reason: f.reason,
  };
}
