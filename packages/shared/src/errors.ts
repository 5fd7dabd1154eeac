/** Error codes the API answers with, in the body `{ error: code, message }`. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'TWO_FACTOR_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'INVALID_CREDENTIALS',
  'EMAIL_NOT_VERIFIED',
  'INVALID_CODE',
  'INVALID_RECOVERY_PHRASE',
  'PASSWORD_REQUIRED',
  'RATE_LIMITED',
  'INSUFFICIENT_BALANCE',
  'LIMIT_EXCEEDED',
  'SERVICE_DISABLED',
  'IDEMPOTENCY_CONFLICT',
  'FOREIGN_ORIGIN',
  'SECURITY_HOLD',
  'ACCOUNT_FROZEN',
  'UNAVAILABLE',
  'BUSY',
  'INTERNAL',
] as const;

export type TErrorCode = (typeof ERROR_CODES)[number];

export type TApiError = { error: TErrorCode; message: string };
