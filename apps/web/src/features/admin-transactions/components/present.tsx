import {
  ASSETS,
  assetById,
  formatAssetAmount,
  formatAud,
  formatDateTime,
  formatRounded,
  formatUsd,
  type TAdminTransactionSummary,
} from '@coffer/shared';
import { userDisplayName, userEmailBesideName } from '@web/components/admin/user-picker';
import { Badge } from '@web/components/ui/badge';
import { CustomerText } from '@web/components/ui/customer-text';
import { EmailText } from '@web/components/ui/email-text';

/** The crypto amount as every screen shows it (the asset's display decimals). */
export function cryptoText(tx: TAdminTransactionSummary): string {
  if (tx.direction === 'none') return '—';
  const asset = assetById(tx.assetId);
  return asset ? formatAssetAmount(asset, tx.amount) : `${tx.amount} ${tx.symbol}`;
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

/** The customer's name as they wrote it, isolated (CustomerText). */
export function CustomerName({
  tx,
  className,
}: {
  tx: TAdminTransactionSummary;
  className?: string;
}) {
  return <CustomerText text={customerText(tx)} className={className} />;
}

/** The customer's name, then their e-mail in brackets unless the name already is it. */
export function CustomerWithEmail({ tx }: { tx: TAdminTransactionSummary }) {
  const email = userEmailBesideName(tx.customer);
  return (
    <>
      <CustomerName tx={tx} className="font-medium" />
      {email ? (
        <span className="text-muted">
          {' '}
          (<EmailText email={email} />)
        </span>
      ) : null}
    </>
  );
}

export function dateText(iso: string): string {
  return formatDateTime(iso);
}

/** A withdrawal or bank transfer: the requests staff complete or reject. */
export function isPayout(type: TAdminTransactionSummary['type']): boolean {
  return type === 'withdrawal' || type === 'bank_transfer';
}

/**
 * A bank payout funded from one of the customer's assets (product.md M11): its crypto
 * amount is held, then debited. Older bank transfers and staff-recorded ones move no crypto.
 */
export function isFundedBankPayout(tx: TAdminTransactionSummary): boolean {
  return tx.type === 'bank_transfer' && tx.direction !== 'none' && assetById(tx.assetId) != null;
}

/** A payout that was turned down reads "Rejected": its hold went back, nothing left. */
export function StatusBadge({
  status,
  type,
}: {
  status: TAdminTransactionSummary['status'];
  type: TAdminTransactionSummary['type'];
}) {
  if (status === 'completed') return <Badge variant="success">Completed</Badge>;
  if (status === 'failed') {
    return isPayout(type) ? (
      <Badge variant="outline" className="border-danger/60 text-danger">
        Rejected
      </Badge>
    ) : (
      <Badge variant="destructive">Failed</Badge>
    );
  }
  return <Badge variant="secondary">Pending</Badge>;
}

/** 'USD per 1 AUD' as staff read it: '1 AUD = 0.6543 USD'. */
export function audRateText(rate: string): string {
  return `1 AUD = ${formatRounded(rate, 4, false) ?? rate} USD`;
}

/** The USD price of one unit of the funding asset: '1 ETH = $3,000.00'. */
export function priceText(tx: TAdminTransactionSummary, priceUsd: string): string {
  return `1 ${assetById(tx.assetId)?.symbol ?? tx.symbol} = ${formatUsd(priceUsd)}`;
}

/**
 * The crypto amount of a row; for a funded bank payout also where it stands: held while
 * pending, paid out once completed, released when rejected.
 */
export function HeldAmount({ tx }: { tx: TAdminTransactionSummary }) {
  const amount = cryptoText(tx);
  if (!isFundedBankPayout(tx)) return <>{amount}</>;
  if (tx.status === 'pending') return <>{amount} held</>;
  if (tx.status === 'failed') {
    return (
      <>
        <s>{amount}</s> <span className="text-muted">(hold released)</span>
      </>
    );
  }
  return <>{amount} paid out</>;
}
