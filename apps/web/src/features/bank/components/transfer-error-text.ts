import { moneyErrorText } from '@web/lib/money/error-text';

/** The customer-facing text for a refused or failed bank transfer request. */
export function transferErrorText(err: unknown): string {
  return moneyErrorText(err, {
    failed: 'Failed to submit bank transfer request',
    signedOut: 'You must be logged in to make a bank transfer request',
    retrySafe: 'it is never made twice.',
  });
}
