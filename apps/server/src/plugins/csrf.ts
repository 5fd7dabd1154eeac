import { MSG } from '@coffer/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another site: the `Origin`
 * header must be this app's own (PUBLIC_URL or the host the request was made to).
 * Bodies must be JSON (Fastify refuses other content types), which a cross-site form
 * cannot send without a CORS preflight that this server never answers.
 */
export function registerCsrfGuard(app: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    if (!isOwnOrigin(request.headers.origin, request.headers.host, publicOrigin)) {
      return done(new AppError('FOREIGN_ORIGIN', MSG.foreignOrigin));
    }
    done();
  });
}

/**
 * Whether an `Origin` header is this app's own: PUBLIC_URL's origin or the host the request
 * was made to. Also what the realtime socket's upgrade must carry (a GET, so not checked above).
 */
export function isOwnOrigin(
  origin: string | undefined,
  host: string | undefined,
  publicOrigin: string,
): boolean {
  // A malformed Origin (say `http://host:3000.evil.example`) is foreign, not a server error.
  const sameHost =
    origin !== undefined &&
    /^https?:\/\//.test(origin) &&
    URL.canParse(origin) &&
    new URL(origin).host === host;
  return origin === publicOrigin || sameHost;
}
