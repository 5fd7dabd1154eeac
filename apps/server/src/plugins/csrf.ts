import { MSG } from '@coffer/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another site: the `Origin`
 * header must be this app's own (PUBLIC_URL, or the scheme and host the request was made
 * to). Bodies must be JSON (Fastify refuses other content types), which a cross-site form
 * cannot send without a CORS preflight that this server never answers.
 */
export function registerCsrfGuard(app: FastifyInstance, publicUrl: string): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const { origin, host } = request.headers;
    if (!isOwnOrigin(origin, host, publicOrigin, request.protocol)) {
      return done(new AppError('FOREIGN_ORIGIN', MSG.foreignOrigin));
    }
    done();
  });
}

/**
 * Whether an `Origin` header is this app's own: PUBLIC_URL's origin, or the same scheme and
 * host the request was made to. Also what the realtime socket's upgrade must carry (a GET,
 * so not checked above).
 *
 * The scheme counts as much as the host: a page served over plain `http://` on the same
 * host name (another port's app, a network attacker's injected page before the HTTPS
 * redirect) is another origin. With an `https://` PUBLIC_URL only an `https://` Origin is
 * ever this app's; otherwise the Origin's scheme must be the request's own
 * (`requestScheme`, Fastify's `request.protocol`: `https` behind a trusted proxy that says
 * so), and plain http when the caller does not say.
 */
export function isOwnOrigin(
  origin: string | undefined,
  host: string | undefined,
  publicOrigin: string,
  requestScheme?: string,
): boolean {
  if (origin === undefined) return false;
  if (origin === publicOrigin) return true;
  // A malformed Origin (say `http://host:3000.evil.example`) is foreign, not a server error.
  if (!/^https?:\/\//.test(origin) || !URL.canParse(origin) || host === undefined) return false;
  const parsed = new URL(origin);
  // Only a bare origin: anything with a path, credentials or a query is not what a browser sends.
  if (parsed.origin !== origin) return false;
  const scheme = parsed.protocol.slice(0, -1);
  const expected = publicOrigin.startsWith('https:') ? 'https' : (requestScheme ?? 'http');
  return scheme === expected && parsed.host === host.toLowerCase();
}
