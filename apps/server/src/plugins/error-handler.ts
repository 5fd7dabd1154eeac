import { MSG } from '@coffer/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/client';
import { isRetryableTransactionError } from '../db/tx';
import { AppError, STATUS_BY_CODE } from '../lib/app-error';

/** When a client should try again while the database is away (it restarts in seconds). */
const DATABASE_RETRY_AFTER_S = 5;
/** When to try again after parallel requests kept colliding on the same rows. */
const CONTENTION_RETRY_AFTER_S = 1;

/** One error handler: `{ error, message }` bodies, and nothing internal on a 5xx. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      const body: Record<string, unknown> = {
        error: err.code,
        message: err.message,
        ...err.details,
      };
      if (err.retryAfter !== undefined) {
        body.retryAfter = err.retryAfter;
        void reply.header('retry-after', String(err.retryAfter));
      }
      return reply.status(STATUS_BY_CODE[err.code]).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      return reply.status(400).send({
        error: 'VALIDATION_FAILED',
        message: first?.message ?? 'The request is not valid.',
      });
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const code =
        status === 404 ? 'NOT_FOUND' : status === 429 ? 'RATE_LIMITED' : 'VALIDATION_FAILED';
      return reply.status(status).send({ error: code, message: err.message });
    }
    // The database restarting or gone: not a fault of the request, and over in seconds. A
    // money POST sent again with its Idempotency-Key is never carried out twice.
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err: String(err) }, 'database unavailable');
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_S)).send({
        error: 'UNAVAILABLE',
        message: MSG.unavailable,
        retryAfter: DATABASE_RETRY_AFTER_S,
      });
    }
    // A deadlock or serialization failure that outlived withTransaction's own tries: the
    // request's transaction was rolled back whole, so sending it again is safe.
    if (isRetryableTransactionError(err)) {
      request.log.warn({ err: String(err) }, 'transaction kept colliding with others');
      return reply.status(503).header('retry-after', String(CONTENTION_RETRY_AFTER_S)).send({
        error: 'BUSY',
        message: MSG.contended,
        retryAfter: CONTENTION_RETRY_AFTER_S,
      });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'INTERNAL', message: MSG.internal });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'NOT_FOUND', message: MSG.notFound }),
  );
}
