import type { TErrorCode } from '@coffer/shared';
import { ApiError } from '../api-client';

/** How one money-moving request (a withdrawal, a bank transfer) names itself in its errors. */
export type TMoneyRequestWords = {
  /** An unexpected failure: 'Failed to submit withdrawal request'. */
  failed: string;
  /** The session is gone: 'You must be logged in to make a withdrawal'. */
  signedOut: string;
  /** Why sending it again after a broken connection is safe: 'it is never paid twice.' */
  retrySafe: string;
};

type TErrorText = (err: ApiError, words: TMoneyRequestWords) => string;

/** The server's own message: it names the field, the limit or the wait. */
const serverMessage: TErrorText = (err) => err.message;
/** Nothing the customer can act on: the request's plain failure. */
const failed: TErrorText = (_err, words) => words.failed;

/**
 * What a refused or failed money request tells the customer, one entry per error code, so
 * that a code added to the API has to be decided here.
 */
export const MONEY_ERROR_TEXT: Record<TErrorCode | 'NETWORK', TErrorText> = {
  VALIDATION_FAILED: serverMessage,
  UNAUTHENTICATED: (_err, words) => words.signedOut,
  TWO_FACTOR_REQUIRED: serverMessage,
  FORBIDDEN: failed,
  NOT_FOUND: failed,
  CONFLICT: failed,
  INVALID_CREDENTIALS: failed,
  EMAIL_NOT_VERIFIED: failed,
  INVALID_CODE: failed,
  INVALID_RECOVERY_PHRASE: failed,
  PASSWORD_REQUIRED: failed,
  RATE_LIMITED: serverMessage,
  INSUFFICIENT_BALANCE: serverMessage,
  LIMIT_EXCEEDED: serverMessage,
  SERVICE_DISABLED: serverMessage,
  IDEMPOTENCY_CONFLICT: serverMessage,
  FOREIGN_ORIGIN: failed,
  SECURITY_HOLD: failed,
  ACCOUNT_FROZEN: failed,
  UNAVAILABLE: failed,
  BUSY: failed,
  INTERNAL: failed,
  // The request may or may not have arrived; the idempotency key makes a retry harmless.
  NETWORK: (err, words) =>
    `${err.message} Submitting the same request again is safe: ${words.retrySafe}`,
};

/** The customer-facing text for a refused or failed money request. */
export function moneyErrorText(err: unknown, words: TMoneyRequestWords): string {
  if (!(err instanceof ApiError)) return words.failed;
  // A code this build does not know (a newer server) reads as a plain failure.
  const text = Object.hasOwn(MONEY_ERROR_TEXT, err.code) ? MONEY_ERROR_TEXT[err.code] : failed;
  return text(err, words);
}
