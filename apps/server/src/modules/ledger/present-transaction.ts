import { assetById, convertFiat, type TTransaction, ZTransactionType } from '@coffer/shared';
import type { TransactionRow } from './ledger.repository';

type TType = TTransaction['type'];
const TYPES: ReadonlySet<string> = new Set(ZTransactionType.options);
const isType = (value: string): value is TType => TYPES.has(value);

/**
 * A numeric(38, 18) column as the shortest exact decimal ('0.500000000000000000' is '0.5').
 * Only trailing fraction zeros go, so no digit of value is ever lost.
 */
export function trimDecimal(value: string): string {
  if (!value.includes('.')) return value;
  return value.replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * The USD a customer sees for a row. A bank transfer stores the AUD amount in usd_amount
 *; what it is worth in USD is its AUD
 * amount at the rate stored with it, and that is what is shown (docs/product.md: every number
 * a customer sees is true).
 */
export function usdShown(
  row: Pick<TransactionRow, 'transaction_type' | 'usd_amount' | 'aud_amount' | 'exchange_rate'>,
): string | null {
  if (row.transaction_type === 'bank_transfer' && row.aud_amount && row.exchange_rate) {
    return convertFiat(row.aud_amount, row.exchange_rate, 'aud-to-usd');
  }
  return row.usd_amount;
}

/** A ledger row as the customer may see it; staff-only columns (who, cycle) stay behind. */
export function presentTransaction(row: TransactionRow): TTransaction {
  if (!isType(row.transaction_type)) {
    throw new Error(`unknown transaction type ${row.transaction_type}`);
  }
  return {
    id: row.id,
    type: row.transaction_type,
    direction: row.direction,
    assetId: row.asset_id,
    symbol: assetById(row.asset_id)?.symbol ?? row.asset_id,
    network: row.network,
    amount: trimDecimal(row.crypto_amount),
    fee: trimDecimal(row.fee),
    usdAmount: usdShown(row),
    audAmount: row.aud_amount,
    status: row.status,
    withdrawalAddress: row.withdrawal_address,
    transactionHash: row.transaction_hash,
    memo: row.memo,
    reason: row.reason,
    audUsdRate:
      row.transaction_type === 'bank_transfer' && row.exchange_rate
        ? trimDecimal(row.exchange_rate)
        : null,
    priceUsd: row.price_usd ? trimDecimal(row.price_usd) : null,
    date: row.transaction_date.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}
