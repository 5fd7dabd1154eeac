import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';

/**
 * An incoming X-Request-Id is kept when it looks like an id: bounded, and only characters
 * that cannot forge a log line, a header or markup (ids from proxies and tracers: UUIDs,
 * hex, `Root=1-…` and the like). Anything else is replaced by a fresh random id.
 */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/** The id of a request: the caller's X-Request-Id if acceptable, else a new UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && ACCEPTED_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * The id of the request whose work is running now, so that lines logged by services (not
 * through `request.log`) during a request carry it too; empty outside a request.
 */
export const requestContext = new AsyncLocalStorage<string>();

const { chindingsSym } = pino.symbols;

/**
 * pino's `mixin`: adds `reqId` to a line logged inside a request, unless the logger is
 * already a request's child that carries it (Fastify's `request.log`), so no line has it twice.
 */
export function requestIdMixin(_merge: object, _level: number, logger: Logger): object {
  const reqId = requestContext.getStore();
  if (reqId === undefined) return {};
  const bindings: unknown = Reflect.get(logger, chindingsSym);
  return typeof bindings === 'string' && bindings.includes('"reqId":') ? {} : { reqId };
}
