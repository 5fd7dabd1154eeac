import { MSG } from '@coffer/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, STATUS_BY_CODE } from '../lib/app-error';

/** One error handler: `{ error, message }` bodies, and nothing internal on a 5xx. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      const body: Record<string, unknown> = { error: err.code, message: err.message };
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
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'INTERNAL', message: MSG.internal });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'NOT_FOUND', message: MSG.notFound }),
  );
}
