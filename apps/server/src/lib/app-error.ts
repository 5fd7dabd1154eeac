import type { TErrorCode } from '@coffer/shared';

/** The one error type of the server: a code from the shared list and a message for people. */
export class AppError extends Error {
  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly retryAfter?: number,
    /** Machine-readable facts beside the message, e.g. when a security hold ends. */
    readonly details?: { holdUntil?: string | null },
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const STATUS_BY_CODE: Record<TErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  TWO_FACTOR_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  INVALID_CREDENTIALS: 401,
  EMAIL_NOT_VERIFIED: 403,
  INVALID_CODE: 400,
  INVALID_RECOVERY_PHRASE: 400,
  PASSWORD_REQUIRED: 401,
  RATE_LIMITED: 429,
  INSUFFICIENT_BALANCE: 400,
  LIMIT_EXCEEDED: 400,
  SERVICE_DISABLED: 403,
  IDEMPOTENCY_CONFLICT: 409,
  FOREIGN_ORIGIN: 403,
  SECURITY_HOLD: 403,
  ACCOUNT_FROZEN: 403,
  UNAVAILABLE: 503,
  BUSY: 503,
  INTERNAL: 500,
};
