import { MSG } from '@coffer/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import type { SessionContext } from '../modules/sessions/sessions.repository';
import type { Access } from './access';

/** customer.md §4: 2FA required but not on, or on but not passed in this session. */
export function needsTwoFactor(s: SessionContext): boolean {
  if (s.twoFactorRequired && !s.twoFactorEnabled) return true;
  return s.twoFactorEnabled && s.twoFactorVerifiedAt === null;
}

/**
 * The server's gate, run for every route before its handler. It fails closed: a route
 * that declares nothing is treated as `customer`.
 */
export function registerGate(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const access: Access = request.routeOptions.config.access ?? 'customer';
    if (access === 'public') return;
    const session = request.session;
    if (!session) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
    if (access === 'signed-in') return;
    if (needsTwoFactor(session)) throw new AppError('TWO_FACTOR_REQUIRED', MSG.twoFactorRequired);
    if (access === 'admin' && !session.isAdmin) throw new AppError('FORBIDDEN', MSG.forbidden);
  });
}
