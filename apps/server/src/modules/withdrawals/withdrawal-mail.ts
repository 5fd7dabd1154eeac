import { assetById, formatAmount, parseAmount } from '@coffer/shared';
import { type TransactionRow, trimDecimal } from '../ledger';

/** The customer's mails about a payout staff completed or rejected, or they cancelled. */

export const isBank = (row: TransactionRow) => row.transaction_type === 'bank_transfer';

/**
 * '0.5 BTC': a ledger row's amount, plus its fee when asked (what a hold was). Any
 * catalogue asset, since staff may have recorded the withdrawal in an admin-only one.
 */
function amountText(row: TransactionRow, column: 'crypto_amount' | 'fee', withFee = false): string {
  const asset = assetById(row.asset_id);
  if (!asset) return `${trimDecimal(row[column])} ${row.asset_id}`;
  const fee = withFee ? parseAmount(row.fee, asset.decimals) : 0n;
  const minor = parseAmount(row[column], asset.decimals) + fee;
  return `${formatAmount(minor, asset.decimals)} ${asset.symbol}`;
}

/** '250.50 AUD': a bank transfer's fiat amount. */
function fiatText(row: TransactionRow): string {
  const amount = row.currency === 'USD' ? row.usd_amount : (row.aud_amount ?? row.usd_amount);
  return `${amount ?? '0'} ${row.currency ?? 'AUD'}`;
}

/** 'Paid from 0.0123 ETH (1 AUD = 0.6543 USD, 1 ETH = 3200 USD)' for a funded bank payout. */
function fundingText(row: TransactionRow, verb: string): string[] {
  if (row.wallet_id === null) return [];
  const asset = assetById(row.asset_id);
  const rates =
    row.exchange_rate && row.price_usd
      ? ` (1 AUD = ${trimDecimal(row.exchange_rate)} USD, 1 ${asset?.symbol ?? row.asset_id} = ${trimDecimal(row.price_usd)} USD)`
      : '';
  return [`${verb} ${amountText(row, 'crypto_amount')}${rates}.`];
}

/**
 * The mail that tells the customer what staff did with their payout. A rejection reads
 * "rejected", with the reason, and says the money is back: it must not read as money that
 * left.
 */
export function payoutMail(
  row: TransactionRow,
  publicUrl: string,
): { subject: string; text: string } {
  const history = `Your history: ${publicUrl}/dashboard/history`;
  const completed = row.status === 'completed';
  if (isBank(row)) {
    return completed
      ? {
          subject: 'Your bank transfer has been sent',
          text: [
            `Your bank transfer of ${fiatText(row)} has been sent.`,
            ...fundingText(row, 'Paid from your wallet:'),
            '',
            `Bank reference: ${row.transaction_hash ?? ''}`,
            '',
            history,
          ].join('\n'),
        }
      : {
          subject: 'Your bank transfer was rejected',
          text: [
            `Rejected: your bank transfer request of ${fiatText(row)} was not paid.`,
            '',
            `Reason: ${row.reason ?? ''}`,
            '',
            ...fundingText(
              row,
              'Nothing left your wallet: the amount held for it is available again,',
            ),
            history,
          ].join('\n'),
        };
  }
  const to = row.withdrawal_address ?? 'your address';
  return completed
    ? {
        subject: 'Your withdrawal has been sent',
        text: [
          `Your withdrawal of ${amountText(row, 'crypto_amount')} to ${to} has been sent.`,
          '',
          `Network fee: ${amountText(row, 'fee')}`,
          `Transaction hash: ${row.transaction_hash ?? ''}`,
          '',
          history,
        ].join('\n'),
      }
    : {
        subject: 'Your withdrawal was rejected',
        text: [
          `Rejected: your withdrawal request of ${amountText(row, 'crypto_amount')} to ${to} was not sent.`,
          '',
          `Reason: ${row.reason ?? ''}`,
          '',
          `Nothing left your wallet: the ${amountText(row, 'crypto_amount', true)} held for it (amount and network fee) is available again.`,
          history,
        ].join('\n'),
      };
}

/**
 * The mail that confirms a cancellation: nothing left, the hold is available again, and
 * what to do if the customer did not cancel it themselves.
 */
export function cancelMail(
  row: TransactionRow,
  publicUrl: string,
): { subject: string; text: string } {
  const notYou =
    'If you did not cancel it, change your password now and contact support: someone may be signed in to your account.';
  const history = `Your history: ${publicUrl}/dashboard/history`;
  if (isBank(row)) {
    return {
      subject: 'Your bank transfer was cancelled',
      text: [
        `Cancelled: you cancelled your bank transfer request of ${fiatText(row)}. Nothing was paid.`,
        '',
        ...fundingText(row, 'Nothing left your wallet: the amount held for it is available again,'),
        notYou,
        '',
        history,
      ].join('\n'),
    };
  }
  return {
    subject: 'Your withdrawal was cancelled',
    text: [
      `Cancelled: you cancelled your withdrawal request of ${amountText(row, 'crypto_amount')} to ${row.withdrawal_address ?? 'your address'}. Nothing was sent.`,
      '',
      `Nothing left your wallet: the ${amountText(row, 'crypto_amount', true)} held for it (amount and network fee) is available again.`,
      notYou,
      '',
      history,
    ].join('\n'),
  };
}
