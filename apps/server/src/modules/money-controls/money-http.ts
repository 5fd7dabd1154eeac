import { ZErrorResponse } from '@coffer/shared';
import { AppError } from '@server/lib/app-error';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '../ledger';

/** The error answers every customer money route can give, besides its 200. */
export const CUSTOMER_ERRORS = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
} as const;

/**
 * The Idempotency-Key of a money-moving request, if it has one. A header sent twice is
 * refused: picking either copy could run a request the client meant to be the other.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (Array.isArray(value)) {
    throw new AppError('VALIDATION_FAILED', 'Send the Idempotency-Key header only once.');
  }
  if (value === undefined) return undefined;
  const key = value.trim();
  if (key === '') throw new AppError('VALIDATION_FAILED', 'The Idempotency-Key header is empty.');
  return key;
}
