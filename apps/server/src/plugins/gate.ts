import { MSG } from '@coffer/shared';
import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';
import { AppError } from '../lib/app-error';
import type { SessionContext } from '../modules/sessions/sessions.repository';
import type { Access } from './access';

/**
 * Whether the user must have 2FA on. An admin can waive it for a customer (
 * '2FA Required'); staff can never go without it.
 */
export function requiresTwoFactor(s: SessionContext): boolean {
  return s.isAdmin || s.twoFactorRequired;
}

/** 2FA required but not on, or on but not passed in this session. */
export function needsTwoFactor(s: SessionContext): boolean {
  if (requiresTwoFactor(s) && !s.twoFactorEnabled) return true;
  return s.twoFactorEnabled && s.twoFactorVerifiedAt === null;
}

/** The admin tree's own condition, not derived from the customer rule: admin, 2FA on and passed. */
export function isVerifiedAdmin(s: SessionContext): boolean {
  return s.isAdmin && s.twoFactorEnabled && s.twoFactorVerifiedAt !== null;
}

/** The access the gate enforces on a route: what it declares, else `customer` (fail closed). */
export function accessOf(config: FastifyContextConfig | undefined): Access {
  return config?.access ?? 'customer';
}

export type GatedRoute = { method: string; url: string; access: Access };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with the access the gate enforces on it, so a test can walk them all. */
    gatedRoutes(): GatedRoute[];
  }
}

/** Methods that only read: everything else changes state. */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The server's gate, run for every route before its handler. It fails closed: a route
 * that declares nothing is treated as `customer`. `assertStaffClear` refuses an admin inside
 * a security hold or a freeze: checked here, for every state-changing admin route, so a
 * route added later is held to it without a word of its own.
 */
export function registerGate(
  app: FastifyInstance,
  holds: { assertStaffClear(userId: string): Promise<void> },
): void {
  // Read when asked rather than now: a nested plugin's onRoute hook (the admin tree's) runs
  // after this one and may still set the access of the same route.
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.decorate('gatedRoutes', () =>
    routes.flatMap((r) =>
      [r.method].flat().map((method) => ({ method, url: r.url, access: accessOf(r.config) })),
    ),
  );

  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const access = accessOf(request.routeOptions.config);
    if (access === 'public') return;
    const session = request.session;
    if (!session) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
    if (access === 'signed-in') return;
    if (needsTwoFactor(session)) throw new AppError('TWO_FACTOR_REQUIRED', MSG.twoFactorRequired);
    if (access !== 'admin') return;
    if (!isVerifiedAdmin(session)) throw new AppError('FORBIDDEN', MSG.forbidden);
    // A held admin still reads (to see what happened), but changes nothing.
    if (!READS.has(request.method)) await holds.assertStaffClear(session.userId);
  });
}
