import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The headers helmet would set, computed once at start-up and assigned in one step per
 * response (see docs/decisions/0003-security-headers-without-helmet.md). Scripts are
 * same-origin only; styles allow inline because toasts and dialogs set them at run time.
 */
export function securityHeaders(https: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    // No <base> element at all: an injected one could point every relative URL elsewhere.
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  return {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/**
 * API answers carry secrets (2FA setup, the recovery phrase, bank details, the session), so
 * no browser or proxy may keep a copy of any of them, errors included (ASVS 14.3.2).
 */
const API_HEADERS = { 'cache-control': 'no-store' };

function isApi(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function setHeaders(request: FastifyRequest, reply: FastifyReply, headers: Record<string, string>) {
  reply.headers(headers);
  if (isApi(request.url)) reply.headers(API_HEADERS);
}

export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const headers = securityHeaders(publicUrl.startsWith('https://'));
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request, reply, headers);
    done();
  });
}

type RouterErrorHandler = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Fastify answers a URL its router cannot read (`frameworkErrors`) without running any hook,
 * so that answer gets the same headers here.
 */
export function withSecurityHeaders(
  publicUrl: string,
  handler: RouterErrorHandler,
): RouterErrorHandler {
  const headers = securityHeaders(publicUrl.startsWith('https://'));
  return (err, request, reply) => {
    setHeaders(request, reply, headers);
    handler(err, request, reply);
  };
}
