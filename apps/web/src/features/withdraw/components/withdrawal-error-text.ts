import { moneyErrorText } from '@web/lib/money/error-text';

/** The customer-facing text for a refused or failed withdrawal request. */
export function withdrawalErrorText(err: unknown): string {
  return moneyErrorText(err, {
    failed: 'Failed to submit withdrawal request',
    signedOut: 'You must be logged in to make a withdrawal',
    retrySafe: 'it is never paid twice.',
  });
}
