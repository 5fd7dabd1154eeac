import { assetById, formatAmount, networkLabel, type TTransaction } from '@coffer/shared';
import {
  ArrowDownLeft,
  ArrowUpRight,
  Coins,
  Landmark,
  type LucideIcon,
  Scale,
  Shuffle,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { formatAud, formatUsd, toMinorOrNull } from '../../../lib/money/format';

const TYPE_LABELS: Record<TTransaction['type'], string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  bank_transfer: 'Bank Transfer',
  staking_reward: 'Staking Reward',
  adjustment: 'Adjustment',
  buy: 'Buy',
  sell: 'Sell',
  others: 'Other',
};

const TYPE_ICONS: Record<TTransaction['type'], LucideIcon> = {
  deposit: ArrowDownLeft,
  withdrawal: ArrowUpRight,
  bank_transfer: Landmark,
  staking_reward: Coins,
  adjustment: Scale,
  buy: ArrowDownLeft,
  sell: ArrowUpRight,
  others: Shuffle,
};

/** customer.md §2: completed default, pending secondary, failed destructive, others neutral. */
function statusVariant(status: string): 'default' | 'secondary' | 'destructive' | 'outline' {
  if (status === 'completed') return 'default';
  if (status === 'pending') return 'secondary';
  if (status === 'failed') return 'destructive';
  return 'outline';
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : DATE.format(ms);
}

/** A crypto amount with its own decimals, up to 8 shown; the wire text if it is unexpected. */
function cryptoText(amount: string, assetId: string, symbol: string): string {
  const asset = assetById(assetId);
  const minor = asset ? toMinorOrNull(amount, asset.decimals) : null;
  if (!asset || minor === null) return `${amount} ${symbol}`;
  const digits = Math.min(8, asset.decimals);
  return `${formatAmount(minor, asset.decimals, { minFractionDigits: 2, maxFractionDigits: digits, grouping: true })} ${symbol}`;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 gap-1">
      <dt className="shrink-0 text-muted">{label}:</dt>
      <dd className="min-w-0 wrap-anywhere text-fg">{children}</dd>
    </div>
  );
}

/** One transaction: what, how much, when, its status, and the details that apply. */
export function TransactionRow({ tx }: { tx: TTransaction }) {
  const Icon = TYPE_ICONS[tx.type];
  const isBank = tx.type === 'bank_transfer';
  const sign = tx.direction === 'credit' ? '+' : tx.direction === 'debit' ? '−' : '';
  const main = isBank
    ? tx.audAmount !== null
      ? formatAud(tx.audAmount)
      : formatUsd(tx.usdAmount)
    : cryptoText(tx.amount, tx.assetId, tx.symbol);
  const fiat = isBank
    ? tx.audAmount !== null && tx.usdAmount !== null
      ? `≈ ${formatUsd(tx.usdAmount)}`
      : null
    : tx.usdAmount !== null
      ? formatUsd(tx.usdAmount)
      : null;
  const hasFee = /[1-9]/.test(tx.fee);

  return (
    <article
      className="flex gap-3 py-4"
      aria-label={`${TYPE_LABELS[tx.type]}, ${formatDate(tx.date)}`}
    >
      <span
        aria-hidden
        className={cn(
          'flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-surface-2',
          tx.direction === 'credit'
            ? 'text-success'
            : tx.direction === 'debit'
              ? 'text-fg'
              : 'text-muted',
        )}
      >
        <Icon className="h-5 w-5" />
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-medium text-fg">
              {TYPE_LABELS[tx.type]}
              <Badge variant={statusVariant(tx.status)} className="capitalize">
                {tx.status}
              </Badge>
            </p>
            <p className="text-sm text-muted">
              {isBank ? 'AUD' : tx.symbol}
              {tx.network ? ` · ${networkLabel(tx.network)}` : ''} ·{' '}
              <time dateTime={tx.date}>{formatDate(tx.date)}</time>
            </p>
          </div>
          <div className="text-right">
            <p
              className={cn(
                'wrap-anywhere font-semibold tabular-nums',
                tx.direction === 'credit' ? 'text-success' : 'text-fg',
              )}
            >
              {sign}
              {main}
            </p>
            {fiat ? <p className="text-sm tabular-nums text-muted">{fiat}</p> : null}
          </div>
        </div>
        <dl className="space-y-0.5 text-sm">
          {hasFee ? (
            <Detail label="Network fee">{cryptoText(tx.fee, tx.assetId, tx.symbol)}</Detail>
          ) : null}
          {tx.withdrawalAddress ? (
            <Detail label="To">
              <span translate="no" className="font-mono">
                {tx.withdrawalAddress}
              </span>
            </Detail>
          ) : null}
          {tx.memo ? <Detail label="Memo">{tx.memo}</Detail> : null}
          {tx.transactionHash ? (
            <Detail label="Transaction hash">
              <span translate="no" className="font-mono">
                {tx.transactionHash}
              </span>
            </Detail>
          ) : null}
          {tx.reason ? (
            <Detail
              label={
                tx.type === 'withdrawal' && tx.status === 'failed' ? 'Rejected because' : 'Reason'
              }
            >
              {tx.reason}
            </Detail>
          ) : null}
        </dl>
        {tx.type === 'withdrawal' && tx.status === 'pending' ? (
          <p className="text-sm text-muted">
            Held from your balance until processed, within 1-24 hours.
          </p>
        ) : null}
      </div>
    </article>
  );
}
