import {
  assetById,
  formatAud,
  formatDateTime,
  formatRounded,
  formatUsd,
  networkLabel,
  type TTransaction,
} from '@coffer/shared';
import { Badge } from '@web/components/ui/badge';
import { cn } from '@web/lib/cn';
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
import { cryptoText } from './crypto-text';
import { destinationOf } from './payout-destination';

export const TYPE_LABELS: Record<TTransaction['type'], string> = {
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

/** completed default, pending secondary, failed destructive, others neutral. */
function statusVariant(status: string): 'default' | 'secondary' | 'destructive' | 'outline' {
  if (status === 'completed') return 'default';
  if (status === 'pending') return 'secondary';
  if (status === 'failed') return 'destructive';
  return 'outline';
}

/**
 * A payout staff turned down reads "Rejected", not "Failed": nothing left the customer's
 * balance (what was held for it went back), so it is not shown as money that moved.
 */
function isRejectedPayout(tx: TTransaction): boolean {
  return tx.status === 'failed' && (tx.type === 'withdrawal' || tx.type === 'bank_transfer');
}

/** A bank payout funded from one of the customer's assets (product.md M11), not an older AUD-only row. */
function isFundedPayout(tx: TTransaction): boolean {
  return tx.type === 'bank_transfer' && tx.direction === 'debit' && assetById(tx.assetId) != null;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    // Wraps: on a phone a long value (a reason, the rates) starts on a line of its own.
    <div className="flex min-w-0 flex-wrap gap-x-1">
      <dt className="shrink-0 text-muted">{label}:</dt>
      <dd className="min-w-0 wrap-anywhere text-fg">{children}</dd>
    </div>
  );
}

function StatusBadge({ tx }: { tx: TTransaction }) {
  if (tx.cancelled) {
    return (
      <Badge variant="outline" className="capitalize text-muted">
        cancelled
      </Badge>
    );
  }
  if (isRejectedPayout(tx)) {
    return (
      <Badge variant="outline" className="capitalize border-danger/60 text-danger">
        rejected
      </Badge>
    );
  }
  // On chain and waiting for blocks: a deposit until it is credited, a withdrawal Coffer
  // has sent until it is final.
  if (tx.status === 'pending' && tx.confirmations) {
    const n = Math.min(tx.confirmations.current, tx.confirmations.required);
    return (
      <Badge variant="secondary">
        {tx.type === 'withdrawal' ? 'Sent — confirming' : 'Confirming'} {n} of{' '}
        {tx.confirmations.required}
      </Badge>
    );
  }
  return (
    <Badge variant={statusVariant(tx.status)} className="capitalize">
      {tx.status}
    </Badge>
  );
}

/** '1 AUD = 0.6543 USD · 1 ETH = $3,000.00': the rates a bank payout was converted at. */
function ratesText(tx: TTransaction): string | null {
  const parts: string[] = [];
  if (tx.audUsdRate)
    parts.push(`1 AUD = ${formatRounded(tx.audUsdRate, 4, false) ?? tx.audUsdRate} USD`);
  if (tx.priceUsd) parts.push(`1 ${tx.symbol} = ${formatUsd(tx.priceUsd)}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The line under a row that says where its money is now, or null. */
function stateNote(tx: TTransaction, held: string): string | null {
  const rejected = isRejectedPayout(tx);
  if (tx.cancelled) {
    return tx.type === 'withdrawal'
      ? `Cancelled by you: the ${held} held for it, with its fee, was returned to your balance.`
      : isFundedPayout(tx)
        ? `Cancelled by you: the ${held} held for it was returned to your balance.`
        : 'Cancelled by you.';
  }
  if (tx.type === 'deposit' && tx.status === 'pending' && tx.confirmations) {
    return 'Not in your balance yet: it is credited once confirmed on the blockchain.';
  }
  if (tx.type === 'withdrawal') {
    if (tx.status === 'pending' && tx.confirmations)
      return 'Sent on the blockchain: completed once confirmed.';
    if (tx.status === 'pending')
      return 'Held from your balance until processed, within 1-24 hours.';
    if (rejected)
      return `Not sent: the ${held} held for it, with its fee, was returned to your balance.`;
    return null;
  }
  if (tx.type !== 'bank_transfer') return null;
  if (isFundedPayout(tx)) {
    if (tx.status === 'pending') {
      return `Held from your ${tx.symbol} balance until the transfer is processed, within 1-3 business days.`;
    }
    if (rejected) return `Not paid: the ${held} held for it was returned to your balance.`;
    return null;
  }
  // An older transfer, or one staff recorded: nothing was held for it.
  if (tx.status === 'pending') return 'Processed within 1-3 business days.';
  if (rejected) return 'Not paid.';
  return null;
}

/**
 * One transaction: what, how much, when, its status, and the details that apply; `action`
 * (Cancel, on a payout nobody has taken yet) under them.
 */
export function TransactionRow({ tx, action }: { tx: TTransaction; action?: ReactNode }) {
  const Icon = TYPE_ICONS[tx.type];
  const isBank = tx.type === 'bank_transfer';
  const funded = isFundedPayout(tx);
  const rejected = isRejectedPayout(tx);
  // A rejected payout moved nothing: no sign, its amount struck through.
  const sign = rejected
    ? ''
    : tx.direction === 'credit'
      ? '+'
      : tx.direction === 'debit'
        ? '−'
        : '';
  const crypto = cryptoText(tx.amount, tx.assetId, tx.symbol);
  const main = isBank
    ? tx.audAmount !== null
      ? formatAud(tx.audAmount)
      : formatUsd(tx.usdAmount)
    : crypto;
  // What a funded payout takes from its asset: held while pending, paid out once completed.
  const cryptoLine = funded
    ? tx.status === 'pending'
      ? `${crypto} held`
      : rejected
        ? crypto
        : `−${crypto}`
    : null;
  const fiat = isBank
    ? tx.audAmount !== null && tx.usdAmount !== null
      ? `≈ ${formatUsd(tx.usdAmount)}`
      : null
    : tx.usdAmount !== null
      ? formatUsd(tx.usdAmount)
      : null;
  const hasFee = /[1-9]/.test(tx.fee);
  const rates = isBank ? ratesText(tx) : null;
  const note = stateNote(tx, crypto);
  const source = funded ? `Paid from ${tx.symbol}` : isBank ? 'AUD' : tx.symbol;

  return (
    <article
      className="flex gap-3 py-4"
      aria-label={`${TYPE_LABELS[tx.type]}, ${formatDateTime(tx.date)}`}
    >
      <span
        aria-hidden
        className={cn(
          'flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-surface-2',
          rejected
            ? 'text-muted'
            : tx.direction === 'credit'
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
              <StatusBadge tx={tx} />
            </p>
            <p className="text-sm text-muted">
              {source}
              {tx.network ? ` · ${networkLabel(tx.network)}` : ''} ·{' '}
              <time dateTime={tx.date}>{formatDateTime(tx.date)}</time>
            </p>
          </div>
          {/* Right-aligned beside the title; under it, when the row wraps on a phone, left. */}
          <div className="sm:text-right">
            <p
              className={cn(
                'wrap-anywhere font-semibold tabular-nums',
                rejected ? 'text-muted' : tx.direction === 'credit' ? 'text-success' : 'text-fg',
              )}
            >
              {rejected ? (
                <s>{main}</s>
              ) : (
                <>
                  {sign}
                  {main}
                </>
              )}
            </p>
            {cryptoLine ? (
              <p className="wrap-anywhere text-sm tabular-nums text-fg">
                {rejected ? <s className="text-muted">{cryptoLine}</s> : cryptoLine}
              </p>
            ) : null}
            {fiat ? <p className="text-sm tabular-nums text-muted">{fiat}</p> : null}
          </div>
        </div>
        <dl className="space-y-0.5 text-sm">
          {rates ? <Detail label="Rates">{rates}</Detail> : null}
          {hasFee ? (
            <Detail label="Network fee">{cryptoText(tx.fee, tx.assetId, tx.symbol, true)}</Detail>
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
            <Detail label={isBank ? 'Bank reference' : 'Transaction hash'}>
              {/* The server builds the link from the operator's explorer setting for the
                  chain (the hash URL-encoded); without one the hash is shown as text. */}
              {tx.explorerUrl && !isBank ? (
                <a
                  href={tx.explorerUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  translate="no"
                  className="font-mono text-primary underline underline-offset-2 hover:no-underline"
                >
                  {tx.transactionHash}
                </a>
              ) : (
                <span translate="no" className="font-mono">
                  {tx.transactionHash}
                </span>
              )}
            </Detail>
          ) : null}
          {isBank && destinationOf(tx) ? <Detail label="To">{destinationOf(tx)}</Detail> : null}
          {/* A cancellation's reason is the customer's own act: the note says it. */}
          {tx.reason && !tx.cancelled ? (
            <Detail label={rejected ? 'Rejected because' : 'Reason'}>{tx.reason}</Detail>
          ) : null}
        </dl>
        {note ? <p className="text-sm text-muted">{note}</p> : null}
        {action ? <div className="pt-1">{action}</div> : null}
      </div>
    </article>
  );
}
