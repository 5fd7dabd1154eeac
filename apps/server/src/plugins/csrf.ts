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
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    // A malformed Origin (say `http://host:3000.evil.example`) is foreign, not a server error.
    const sameHost =
      origin !== undefined &&
      /^https?:\/\//.test(origin) &&
      URL.canParse(origin) &&
      new URL(origin).host === request.headers.host;
    if (origin !== publicOrigin && !sameHost) {
      throw new AppError('FOREIGN_ORIGIN', MSG.foreignOrigin);
    }
  });
}
