import type { FastifyRequest } from 'fastify';

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
