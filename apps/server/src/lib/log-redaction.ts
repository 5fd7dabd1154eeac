import type { FastifyRequest } from 'fastify';
import pino from 'pino';

/** Query parameters whose values are secrets wherever they appear (links, codes, passwords). */
const SECRET_PARAM = /token|code|password|phrase|secret/i;
/** Pages whose whole query is a secret: the e-mail verification link. */
const SECRET_QUERY_PATHS = ['/verify-email', '/api/auth/verify-email'];
const REDACTED = '[redacted]';

/**
 * The URL as a log line may show it: the query of a verification link dropped whole, and the
 * value of every parameter named like a secret replaced, so a link in the log cannot be used.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const path = url.slice(0, q);
  const normalized = path.toLowerCase().replace(/\/+$/, '');
  if (SECRET_QUERY_PATHS.includes(normalized)) return `${path}?${REDACTED}`;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq < 0 ? part : part.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A malformed name is judged as it was sent.
      }
      return SECRET_PARAM.test(name) && eq >= 0 ? `${rawName}=${REDACTED}` : part;
    });
  return `${path}?${params.join('&')}`;
}

/** Fastify's request serializer with the URL redacted; nothing else of the request is logged. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Error fields that carry the values of a failed query: bound parameters, or a key's value. */
const VALUE_FIELDS = new Set(['params', 'parameters', 'detail']);

/** A query error's text without its bound parameters (Drizzle appends them as `params: …`). */
function withoutParams(text: string): string {
  return text.replace(/\nparams: [^\n]*/g, '\nparams: [redacted]');
}

function redactError(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return withoutParams(value);
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => redactError(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      VALUE_FIELDS.has(key) ? REDACTED : redactError(v, depth + 1),
    ]),
  );
}

/**
 * The `err` serializer: pino's, then without what a failed query was given. Database errors
 * carry their parameters (e-mail addresses, amounts) in `params` and in the message, and a
 * unique key's value in `detail`; the query, the code and the constraint stay for the reader.
 * A string `err` (`String(err)`) is cleaned the same way.
 */
export function serializeError(err: unknown): unknown {
  return redactError(err instanceof Error ? pino.stdSerializers.err(err) : err, 0);
}
