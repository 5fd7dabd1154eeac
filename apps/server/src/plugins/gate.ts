import { MSG, rolesAllow, STAFF_MSG, type TPermission } from '@coffer/shared';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../lib/app-error';
import type { SessionContext } from '../modules/sessions/sessions.repository';
import type { Access } from './access';

/**
 * Whether the user must have 2FA on. An admin can waive it for a customer (the users
 * screen's '2FA Required' switch); staff can never go without it.
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

export type GatedRoute = {
  method: string;
  url: string;
  access: Access;
  permission: TPermission | undefined;
};

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
      [r.method].flat().map((method) => ({
        method,
        url: r.url,
        access: accessOf(r.config),
        permission: r.config?.permission,
      })),
    ),
  );
  // A staff route that names no permission would be open to every role: refuse to start.
  app.addHook('onReady', (done) => {
    const bare = app.gatedRoutes().filter((r) => r.access === 'admin' && !r.permission);
    if (bare.length === 0) return done();
    const names = bare.map((r) => `${r.method} ${r.url}`).join(', ');
    done(new Error(`admin routes without a permission: ${names}`));
  });

  // Waits only for a staff write's hold check; every other request passes or is refused
  // without a promise (a thrown refusal becomes the request's error, as Fastify does for
  // any hook).
  app.addHook('onRequest', (request, _reply, done) => {
    const staffWriter = admit(request);
    if (staffWriter === null) return done();
    holds.assertStaffClear(staffWriter).then(() => done(), done);
  });
}

/**
 * The gate's rule for one request: refuses what the route's access does not allow; returns
 * the admin's id when a state-changing admin request still has to pass the hold check. An
 * admin route also needs a role holding the permission it declares (read from this
 * request's session, so a change of role counts from the next request).
 */
function admit(request: FastifyRequest): string | null {
  if (request.is404) return null;
  const access = accessOf(request.routeOptions.config);
  if (access === 'public') return null;
  const session = request.session;
  if (!session) throw new AppError('UNAUTHENTICATED', MSG.unauthenticated);
  if (access === 'signed-in') return null;
  if (needsTwoFactor(session)) throw new AppError('TWO_FACTOR_REQUIRED', MSG.twoFactorRequired);
  if (access !== 'admin') return null;
  if (!isVerifiedAdmin(session)) throw new AppError('FORBIDDEN', MSG.forbidden);
  // No permission declared holds for nobody (the start refuses such a route anyway).
  const permission = request.routeOptions.config.permission;
  if (!permission || !rolesAllow(session.staffRoles, permission)) {
    throw new AppError('FORBIDDEN', STAFF_MSG.forbiddenRole);
  }
  // A held admin still reads (to see what happened), but changes nothing.
  return READS.has(request.method) ? null : session.userId;
}
