import { ASSETS, assetById, type TAdminTransactionSummary } from '@coffer/shared';
import { userDisplayName } from '../../../components/admin/user-picker';
import { Badge } from '../../../components/ui/badge';
import { formatAud, formatCrypto, formatUsd } from '../../../lib/money/format';

/** admin.md §9: crypto with 6 decimals, fiat with 2. */
export function cryptoText(tx: TAdminTransactionSummary): string {
  if (tx.direction === 'none') return '—';
  const asset = assetById(tx.assetId);
  return asset
    ? `${formatCrypto(tx.amount, asset.decimals, Math.min(6, asset.decimals))} ${asset.symbol}`
    : `${tx.amount} ${tx.symbol}`;
}

export function usdText(tx: TAdminTransactionSummary): string {
  return formatUsd(tx.usdAmount);
}

export function audText(tx: TAdminTransactionSummary): string {
  return formatAud(tx.audAmount);
}

export function assetText(tx: TAdminTransactionSummary): string {
  const asset = assetById(tx.assetId);
  if (!asset) return tx.symbol;
  return asset.id === 'USDT-ERC20' || asset.id === 'USDT-TRC20'
    ? `USDT (${asset.network === 'erc20' ? 'ERC-20' : 'TRC-20'})`
    : ASSETS[asset.id].symbol;
}

const TYPE_TEXT: Record<TAdminTransactionSummary['type'], string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  bank_transfer: 'Bank transfer',
  staking_reward: 'Staking reward',
  adjustment: 'Adjustment',
  buy: 'Buy',
  sell: 'Sell',
  others: 'Other',
};

export function typeText(type: TAdminTransactionSummary['type']): string {
  return TYPE_TEXT[type];
}

export function customerText(tx: TAdminTransactionSummary): string {
  return userDisplayName(tx.customer);
}

/** The customer's name, then their e-mail in brackets unless the name already is it. */
export function CustomerWithEmail({ tx }: { tx: TAdminTransactionSummary }) {
  const name = customerText(tx);
  return (
    <>
      <span className="font-medium">{name}</span>
      {name !== tx.customer.email ? (
        <span className="text-muted"> ({tx.customer.email})</span>
      ) : null}
    </>
  );
}

export function dateText(iso: string): string {
  return new Date(iso).toLocaleString();
}

export function StatusBadge({ status }: { status: TAdminTransactionSummary['status'] }) {
  if (status === 'completed') return <Badge variant="success">Completed</Badge>;
  if (status === 'failed') return <Badge variant="destructive">Failed</Badge>;
  return <Badge variant="secondary">Pending</Badge>;
}
