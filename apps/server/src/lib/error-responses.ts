import { ZErrorResponse } from '@coffer/shared';

/**
 * The error answers a route may give, each the shared error shape: spread into a route's
 * `response` schema beside its 200.
 */
export const ERROR_RESPONSES = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  429: ZErrorResponse,
} as const;
